/**
 * Check 4d: the mock's answers meet openapi.json. The scenario drives every operation and error
 * through `createMockApi().fetch`; each answer is validated with ajv (JSON Schema 2020-12) against
 * the response the document gives its operation and status, headers included, and every event
 * type the mock can deliver against the document's `webhooks`.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/contract.js';
import { createMockApi } from '../../src/testing/index.js';
import { type Exchange, FULL_KEY, recordingFetch, runScenario, SCENARIO_KEYS } from './scenario.js';

type Json = Record<string, unknown>;
interface Response {
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: Json }>;
  content?: Record<string, { schema: Json }>;
}

const DOCUMENT_ID = 'openapi.json';
const document = JSON.parse(
  readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'),
) as Json & { paths: Record<string, Record<string, { responses: Record<string, Json> }>> };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(document, DOCUMENT_ID);

const api = createMockApi({ keys: SCENARIO_KEYS });
afterAll(() => api.close());

// A JSON pointer into the document, as ajv and $ref write it.
function pointer(...parts: string[]): string {
  return `#/${parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

function resolve<T>(value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value) {
    const path = value.$ref.slice(2).split('/');
    return path.reduce<unknown>(
      (node, part) => (node as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    ) as T;
  }
  return value as T;
}

function validate(schemaPointer: string, data: unknown): string[] {
  const check = ajv.getSchema(`${DOCUMENT_ID}${schemaPointer}`);
  if (!check) throw new Error(`no schema at ${schemaPointer}`);
  if (check(data)) return [];
  return (check.errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message}`);
}

// The path template of the document that a concrete path matches.
function templateOf(path: string): string | undefined {
  return Object.keys(document.paths).find((template) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
}

function problemsOf(exchange: Exchange): string[] {
  const where = `${exchange.method} ${exchange.url.pathname} -> ${exchange.status}`;
  const template = templateOf(exchange.url.pathname);
  const method = exchange.method.toLowerCase();
  const operation = template ? document.paths[template]?.[method] : undefined;
  if (!template || !operation) return [`${where}: no such operation in the document`];
  const status = String(exchange.status);
  const response = operation.responses[status];
  if (!response) return [`${where}: the document lists no ${status} for this operation`];
  const { headers = {}, content } = resolve<Response>(response as Response);
  const problems: string[] = [];
  for (const [name, header] of Object.entries(headers)) {
    const { required, schema } = resolve(header) as { required?: boolean; schema: Json };
    const value = exchange.headers.get(name);
    if (value === null) {
      if (required) problems.push(`${where}: header ${name} is missing`);
      continue;
    }
    // Header values are text: an integer header must read as one.
    const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
    const check = ajv.compile(schema);
    if (!check(typed)) problems.push(`${where}: header ${name} ${ajv.errorsText(check.errors)}`);
  }
  const json = content?.['application/json'];
  if (!json) {
    if (exchange.body !== undefined) problems.push(`${where}: a body where the document has none`);
    return problems;
  }
  const schemaPointer = response.$ref
    ? `${String(response.$ref)}/content/application~1json/schema`
    : pointer(
        'paths',
        template,
        method,
        'responses',
        status,
        'content',
        'application/json',
        'schema',
      );
  for (const problem of validate(schemaPointer, exchange.body)) {
    problems.push(`${where}: ${problem}`);
  }
  return problems;
}

it('answers every operation and error as the document describes', async () => {
  const exchanges: Exchange[] = [];
  const fetch = recordingFetch(exchanges, api.fetch);
  await runScenario(api.baseUrl, fetch);
  // A bad paging parameter, which the SDK refuses to send, straight to the mock.
  await fetch(`${api.baseUrl}/v1/users?limit=0`, {
    headers: { authorization: `Bearer ${FULL_KEY}` },
  });

  const statuses = new Set(exchanges.map((exchange) => exchange.status));
  for (const status of [200, 201, 204, 400, 401, 403, 404, 409, 422, 429]) {
    expect(statuses).toContain(status);
  }
  expect(exchanges.flatMap(problemsOf)).toEqual([]);
});

it('delivers every event type in the shape of the document', async () => {
  const [recognition] = api.store.recognitions.all();
  const [user] = api.store.users.all();
  const [reward] = api.store.rewards.all();
  const [team] = api.store.teams.all();
  const [budget] = api.store.budgets.all();
  const records: Record<string, unknown> = { recognition, user, reward, team, budget };
  const problems: string[] = [];
  for (const type of WEBHOOK_EVENT_TYPES) {
    const data = type.startsWith('team.member_') ? { team, user } : records[type.split('.')[0]!];
    const event = await api.emit(type, data);
    const schema = pointer(
      'webhooks',
      type,
      'post',
      'requestBody',
      'content',
      'application/json',
      'schema',
    );
    problems.push(
      ...validate(schema, JSON.parse(JSON.stringify(event))).map(
        (problem) => `${type}: ${problem}`,
      ),
    );
  }
  expect(problems).toEqual([]);
});

it('reports an answer that breaks the document, so the checks above can fail', () => {
  const exchange = (status: number, body: unknown, headers: Record<string, string>): Exchange => ({
    method: 'GET',
    url: new URL('http://api.test/v1/users/0b6c2f8e-8a5e-4c9f-9a53-8f1f2f3c4d5e'),
    status,
    headers: new Headers(headers),
    body,
    response: new Response(),
  });
  const headers = {
    'x-request-id': 'req_1',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '99',
    'x-ratelimit-reset': '1800000000',
  };
  const where = 'GET /v1/users/0b6c2f8e-8a5e-4c9f-9a53-8f1f2f3c4d5e';
  expect(problemsOf(exchange(200, { data: { id: 'not-a-uuid', name: 1 } }, headers))).toEqual(
    expect.arrayContaining([
      `${where} -> 200: /data/id must match format "uuid"`,
      `${where} -> 200: /data/name must be string`,
      `${where} -> 200: /data must have required property 'email'`,
    ]),
  );
  expect(problemsOf(exchange(404, { message: 'gone' }, {})).length).toBeGreaterThan(4);
  expect(problemsOf(exchange(418, undefined, headers))).toEqual([
    `${where} -> 418: the document lists no 418 for this operation`,
  ]);
});
