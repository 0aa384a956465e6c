import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  type ApiError,
  BadRequestError,
  Client,
  type ClientOptions,
  UnprocessableEntityError,
} from '../../src/index.js';
import { TEST_API_KEY, TEST_BASE_URL } from '../support/core.js';

export { TEST_API_KEY, TEST_BASE_URL };

/**
 * A client on the test host; no retries, so a failure shows at once. Answers are checked
 * strictly, as the SDK's own suites do, unless the test says otherwise.
 */
export function testClient(options: ClientOptions = {}): Client {
  return new Client({
    apiKey: TEST_API_KEY,
    baseUrl: TEST_BASE_URL,
    maxRetries: 0,
    validateResponses: 'strict',
    ...options,
  });
}

/** A logger that keeps what is logged at warn, and drops the rest. */
export function warnLogger() {
  const warnings: string[] = [];
  const ignore = () => undefined;
  return {
    warnings,
    logger: {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (message: string) => void warnings.push(message),
    },
  };
}

/** A request as the mock server received it. */
export interface SeenRequest {
  method: string;
  url: URL;
  /** The path exactly as sent, percent-encoding included. */
  rawPath: string;
  headers: Headers;
  /** The parsed JSON body, or undefined when there was none. */
  body: Promise<unknown>;
}

/**
 * An MSW server for the calling test file (listening from its first test to its last), and the
 * list of every request it saw during the current test, handled or not.
 */
export function useMockServer() {
  const server = setupServer();
  const requests: SeenRequest[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(seen(request));
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => {
    requests.length = 0;
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return { server, requests };
}

function seen(request: Request): SeenRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url,
    rawPath: request.url.slice(url.origin.length).split('?')[0] ?? '',
    headers: request.headers,
    body: request.body ? request.clone().json() : Promise.resolve(undefined),
  };
}

/** The query of a request as a plain object. */
export function queryOf(request: SeenRequest | undefined): Record<string, string> {
  return Object.fromEntries(request?.url.searchParams ?? []);
}

/** A JSON answer with the headers every answer carries. */
export function json(body: unknown, status = 200): Response {
  return HttpResponse.json(body as Record<string, unknown>, {
    status,
    headers: { 'x-request-id': 'req_test' },
  });
}

/**
 * Asserts that a call failed the SDK's own checks of its request body: the 422
 * `validation_error` the service would answer, flagged local, with a detail per expected field,
 * each named in the message.
 */
export function expectLocalValidationError(
  call: PromiseLike<unknown>,
  fields: string[],
): Promise<UnprocessableEntityError> {
  return expectLocalError(call, UnprocessableEntityError, 422, 'validation_error', fields);
}

/**
 * Asserts that a call failed the SDK's own checks of its query (paging, filters, period): the
 * 400 `invalid_request` the service would answer, flagged local, with a detail per field.
 */
export function expectLocalBadRequest(
  call: PromiseLike<unknown>,
  fields: string[],
): Promise<BadRequestError> {
  return expectLocalError(call, BadRequestError, 400, 'invalid_request', fields);
}

async function expectLocalError<E extends ApiError>(
  call: PromiseLike<unknown>,
  errorClass: new (...args: never[]) => E,
  status: number,
  code: string,
  fields: string[],
): Promise<E> {
  const error = await Promise.resolve(call).then(
    () => expect.fail('expected the call to be rejected'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(errorClass);
  const apiError = error as E;
  expect(apiError).toMatchObject({ status, code, local: true });
  expect(apiError.details?.map((detail) => detail.field)).toEqual(fields);
  for (const field of fields) expect(apiError.message).toContain(`${field}:`);
  return apiError;
}

/** A page answer as the contract shapes it. */
export function pageBody(
  data: unknown[],
  pagination: { page: number; total_pages: number; next_cursor?: string | null },
) {
  return { data, pagination };
}

export const UUID = {
  alice: '3f0c2b9e-8d4a-4c1e-9b7f-1a2b3c4d5e6f',
  bob: '7a1d9e2c-5b3f-4e8a-a6c4-0f1e2d3c4b5a',
  team: 'b5e4d3c2-a1f0-4e9d-8c7b-6a5f4e3d2c1b',
  record: '0d9c8b7a-6f5e-4d3c-b2a1-f0e9d8c7b6a5',
} as const;

export const CREATED_AT = '2026-11-21T09:30:00Z';

/** Records as the contract shapes them (§3); override any field. */
export const records = {
  recognition: (fields: Record<string, unknown> = {}) => ({
    id: UUID.record,
    sender: { id: UUID.alice, name: 'Alice' },
    recipient: { id: UUID.bob, name: 'Bob' },
    message: 'Thanks for the release notes!',
    points: 10,
    created_at: CREATED_AT,
    ...fields,
  }),
  user: (fields: Record<string, unknown> = {}) => ({
    id: UUID.alice,
    name: 'Alice',
    email: 'alice@example.com',
    role: 'member',
    status: 'active',
    team_id: UUID.team,
    points_balance: 120,
    created_at: CREATED_AT,
    ...fields,
  }),
  reward: (fields: Record<string, unknown> = {}) => ({
    id: UUID.record,
    name: 'Extra day off',
    description: null,
    cost: 500,
    available: true,
    created_at: CREATED_AT,
    ...fields,
  }),
  team: (fields: Record<string, unknown> = {}) => ({
    id: UUID.team,
    name: 'Platform',
    description: 'Runs the platform',
    member_count: 8,
    created_at: CREATED_AT,
    ...fields,
  }),
  webhook: (fields: Record<string, unknown> = {}) => ({
    id: UUID.record,
    url: 'https://hooks.example.com/recognition',
    events: ['recognition.created'],
    description: null,
    enabled: true,
    created_at: CREATED_AT,
    ...fields,
  }),
  budget: (fields: Record<string, unknown> = {}) => ({
    id: UUID.record,
    team_id: null,
    period: 'monthly',
    total_points: 1000,
    used_points: 250,
    remaining_points: 750,
    starts_at: '2026-11-01T00:00:00Z',
    ends_at: '2026-11-30T23:59:59Z',
    ...fields,
  }),
  summary: (fields: Record<string, unknown> = {}) => ({
    period: '30d',
    total_recognitions: 42,
    participation_rate: 63.5,
    total_points: 810,
    ...fields,
  }),
};
