/**
 * The judge ties to the SDK: for each of the 18 operations, generated variations of an answer
 * (fields dropped, renamed, retyped or null; extra fields; enumeration values known and unknown;
 * each envelope form: cursor, page, Link, Link alone, none, broken; each rate-limit header
 * family; each error body form; text, base64 and non-JSON bodies) are judged, and given to a
 * Client of their own through a fetch: the judge says "fail" exactly when that client's call, or
 * its `for await` to the end, rejects, and names the same error.
 */
import { Client, EmployeeRecognitionError } from '@employee-recognition/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../src/contract.js';
import { judge } from '../../src/doctor/judge.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';

const BASE = 'https://api.employee-recognition.example';
const KEY = `rk_test_${'0'.repeat(24)}`;
const judgeClient = new Client({ apiKey: KEY, baseUrl: BASE, logLevel: 'off' });

const ID = '0b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11';
const AT = '2026-11-21T09:30:00Z';
const RECORDS: Record<string, Record<string, unknown>> = {
  recognitions: {
    id: ID,
    sender: { id: ID, name: 'Person1' },
    recipient: { id: ID, name: 'Person2' },
    message: 'Thanks',
    points: 10,
    created_at: AT,
  },
  users: {
    id: ID,
    name: 'Person1',
    email: 'person1@redacted.invalid',
    role: 'member',
    status: 'active',
    team_id: null,
    points_balance: 40,
    created_at: AT,
  },
  rewards: { id: ID, name: 'Mug', description: null, cost: 100, available: true, created_at: AT },
  teams: { id: ID, name: 'Core', description: 'x', member_count: 3, created_at: AT },
  webhooks: {
    id: ID,
    url: 'https://receiver.example/hooks',
    events: ['recognition.created'],
    description: null,
    enabled: true,
    created_at: AT,
  },
  budgets: {
    id: ID,
    team_id: ID,
    period: 'monthly',
    total_points: 100,
    used_points: 10,
    remaining_points: 90,
    starts_at: AT,
    ends_at: AT,
  },
  analytics: {
    period: '30d',
    total_recognitions: 3,
    participation_rate: 0.5,
    total_points: 30,
  },
};
const ENUMS: Record<string, [string, string[]]> = {
  users: ['role', ['admin', 'manager', 'member']],
  budgets: ['period', ['monthly', 'quarterly', 'annual']],
};
const PAGED = new Set(['recognitions.list', 'users.list', 'rewards.list', 'teams.list']);

/** How an app calls each operation, written here apart from the judge's table. */
async function call(client: Client, operation: OperationName): Promise<void> {
  const [group, method] = operation.split('.') as [string, string];
  if (PAGED.has(operation)) {
    const resource = client[group as 'users'];
    for await (const _record of resource.list()) {
      // To the end, as an app exports a list.
    }
    return;
  }
  const resource = (
    client as unknown as Record<
      string,
      Record<string, (...args: unknown[]) => PromiseLike<unknown>>
    >
  )[group]!;
  const args: unknown[] =
    method === 'get' || method === 'delete'
      ? [ID]
      : method === 'update'
        ? [ID, { enabled: false }]
        : operation === 'recognitions.create'
          ? [{ recipient_id: ID, message: 'Thanks' }]
          : operation === 'webhooks.create'
            ? [{ url: 'https://receiver.example/hooks', events: ['*'] }]
            : [];
  await resource[method]!(...args);
}

const anyValue = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
);

/** A record of `group` with up to three generated changes. */
function record(group: string): fc.Arbitrary<unknown> {
  const base = RECORDS[group]!;
  const keys = Object.keys(base);
  const change = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), key: fc.constantFrom(...keys) }),
    fc.record({
      kind: fc.constant('rename' as const),
      key: fc.constantFrom(...keys),
      to: fc.constantFrom('mail', 'displayName', 'createdAt'),
    }),
    fc.record({
      kind: fc.constant('retype' as const),
      key: fc.constantFrom(...keys),
      value: anyValue,
    }),
    fc.record({
      kind: fc.constant('extra' as const),
      key: fc.constantFrom('mood', 'tier'),
      value: anyValue,
    }),
    fc.record({
      kind: fc.constant('enum' as const),
      value: fc.constantFrom(...(ENUMS[group]?.[1] ?? ['x']), 'owner', 'weekly'),
    }),
  );
  return fc.array(change, { maxLength: 3 }).map((changes) => {
    const out: Record<string, unknown> = { ...base };
    for (const each of changes) {
      if (each.kind === 'drop') delete out[each.key];
      else if (each.kind === 'rename') {
        out[each.to] = out[each.key];
        delete out[each.key];
      } else if (each.kind === 'retype' || each.kind === 'extra') out[each.key] = each.value;
      else if (ENUMS[group]) out[ENUMS[group][0]] = each.value;
    }
    return out;
  });
}

const RATE_LIMIT: Record<string, Record<string, string>> = {
  none: {},
  'x-ratelimit': {
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '9',
    'x-ratelimit-reset': '1900000000',
  },
  ratelimit: { 'ratelimit-limit': '100', 'ratelimit-remaining': '9', 'ratelimit-reset': '30' },
  structured: { ratelimit: '"default";r=9;t=30', 'ratelimit-policy': '"default";q=100;w=60' },
  garbage: { 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-1' },
};

interface Generated {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
  base64: boolean;
}

/** An answer to `operation`: a 2xx in every envelope form, or an error in every body form. */
function answer(operation: OperationName): fc.Arbitrary<Generated> {
  const [group, method] = operation.split('.') as [string, string];
  const path = OPERATIONS[operation].split(' ')[1]!;
  const records = fc.array(record(group), { maxLength: 3 });
  const pagination = fc.oneof(
    fc.record({
      page: fc.integer({ min: 1, max: 3 }),
      total_pages: fc.integer({ min: 1, max: 3 }),
      next_cursor: fc.oneof(fc.constant(null), fc.constantFrom('c1', 'c2')),
    }),
    fc.record({
      page: fc.integer({ min: 1, max: 3 }),
      total_pages: fc.integer({ min: 1, max: 3 }),
    }),
    anyValue,
  );
  const success: fc.Arbitrary<{ body: unknown; headers: Record<string, string> }> = PAGED.has(
    operation,
  )
    ? fc
        .record({
          data: fc.oneof({ weight: 5, arbitrary: records }, { weight: 1, arbitrary: anyValue }),
          pagination: fc.option(pagination, { nil: undefined }),
          link: fc.constantFrom(
            undefined,
            `<${BASE}${path}?cursor=next>; rel="next"`,
            `<https://elsewhere.example${path}?cursor=next>; rel="next"`,
          ),
        })
        .map(({ data, pagination, link }) => ({
          body: pagination === undefined ? { data } : { data, pagination },
          headers: link ? { link } : {},
        }))
    : method === 'list'
      ? fc
          .oneof({ weight: 5, arbitrary: records }, { weight: 1, arbitrary: anyValue })
          .map((data) => ({ body: { data }, headers: {} }))
      : method === 'delete'
        ? fc.constant({ body: undefined, headers: {} })
        : fc
            .oneof(
              {
                weight: 5,
                arbitrary: record(group).map((data) =>
                  operation === 'webhooks.create'
                    ? { ...(data as object), secret: 'whsec_c2VjcmV0' }
                    : data,
                ),
              },
              { weight: 1, arbitrary: anyValue },
            )
            .map((data) => ({ body: { data }, headers: {} }));
  const ok = fc.record({
    status: fc.constant(method === 'delete' ? 204 : method === 'create' ? 201 : 200),
    payload: success,
    text: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('', 'not json', '<html>oops</html>') },
    ),
  });
  const error = fc.record({
    status: fc.constantFrom(400, 401, 403, 404, 409, 422, 429, 500, 503),
    form: fc.constantFrom('contract', 'problem', 'html', 'empty', 'other-json'),
  });
  return fc
    .record({
      outcome: fc.oneof({ weight: 3, arbitrary: ok }, { weight: 1, arbitrary: error }),
      family: fc.constantFrom(...Object.keys(RATE_LIMIT)),
      base64: fc.boolean(),
    })
    .map(({ outcome, family, base64 }): Generated => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...RATE_LIMIT[family],
      };
      if ('payload' in outcome) {
        const body =
          outcome.text ??
          (outcome.payload.body === undefined ? undefined : JSON.stringify(outcome.payload.body));
        return {
          status: outcome.status,
          headers: { ...headers, ...outcome.payload.headers },
          body,
          base64,
        };
      }
      const bodies: Record<string, [string, string]> = {
        contract: ['application/json', '{"error":{"code":"not_found","message":"No such record"}}'],
        problem: [
          'application/problem+json',
          `{"type":"about:blank","title":"Error","status":${outcome.status},"detail":"No"}`,
        ],
        html: ['text/html', '<html><title>Bad Gateway</title></html>'],
        empty: ['application/json', ''],
        'other-json': ['application/json', '{"message":"nope"}'],
      };
      const [type, body] = bodies[outcome.form]!;
      return {
        status: outcome.status,
        headers: { ...headers, 'content-type': type },
        body,
        base64,
      };
    });
}

/** What a Client of its own makes of the answer: the error its call or iteration rejects with. */
async function clientVerdict(
  operation: OperationName,
  generated: Generated,
  bytes: BodyInit | null,
) {
  let answered = false;
  const client = new Client({
    apiKey: KEY,
    baseUrl: BASE,
    logLevel: 'off',
    maxRetries: 0,
    rateLimit: 'off',
    fetch: async () => {
      if (answered) {
        return Response.json({
          data: [],
          pagination: { page: 9, total_pages: 9, next_cursor: null },
        });
      }
      answered = true;
      const empty = generated.status === 204 || bytes === null;
      return new Response(empty ? null : bytes, {
        status: generated.status,
        headers: generated.headers,
      });
    },
  });
  try {
    await call(client, operation);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(EmployeeRecognitionError);
    return (error as Error).name;
  }
}

describe('the judge says "fail" exactly when the SDK’s own call rejects', () => {
  it.each(Object.keys(OPERATIONS) as OperationName[])('%s', async (operation) => {
    await fc.assert(
      fc.asyncProperty(answer(operation), async (generated) => {
        const body =
          generated.body === undefined
            ? undefined
            : generated.base64
              ? Uint8Array.from(
                  Buffer.from(Buffer.from(generated.body).toString('base64'), 'base64'),
                )
              : generated.body;
        const judged = await judge(
          judgeClient,
          operation,
          `${BASE}${OPERATIONS[operation].split(' ')[1]!}`,
          {
            status: generated.status,
            headers: new Headers(generated.headers),
            body,
          },
        );
        const rejected = await clientVerdict(operation, generated, body ?? null);
        expect(judged.error?.name).toBe(rejected);
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(100) },
    );
  });
});
