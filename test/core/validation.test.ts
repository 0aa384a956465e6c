import { describe, expect, it } from 'vitest';
import { dataSchema, pageSchema } from '../../src/core/resource.js';
import { BadRequestError, InvalidResponseError } from '../../src/core/errors.js';
import { type ApiRequest, NotJson, type ResponseValidation } from '../../src/internal/exchange.js';
import { parseQuery, parseResponse } from '../../src/core/validation.js';
import { analyticsSummarySchema } from '../../src/resources/analytics.js';
import { budgetSchema } from '../../src/resources/budgets.js';
import { recognitionSchema } from '../../src/resources/recognitions.js';
import { rewardSchema } from '../../src/resources/rewards.js';
import { pageParamsSchema } from '../../src/resources/shared.js';
import { teamSchema } from '../../src/resources/teams.js';
import { userSchema } from '../../src/resources/users.js';
import { webhookSchema } from '../../src/resources/webhooks.js';
import { records, UUID } from '../resources/support.js';

const recognitionBody = dataSchema(recognitionSchema);
const recognitionPage = pageSchema(recognitionSchema);
const userBody = dataSchema(userSchema);

const GET_ONE: ApiRequest = { method: 'GET', path: `/v1/recognitions/${UUID.record}` };
const LIST: ApiRequest = { method: 'GET', path: '/v1/recognitions' };
const CREATE: ApiRequest = { method: 'POST', path: '/v1/recognitions' };

/** A validation setting that records what it logs. */
function validation(mode: ResponseValidation['mode']) {
  const warnings: string[] = [];
  const setting: ResponseValidation = {
    mode,
    warn: (message) => warnings.push(message),
    warned: new Set(),
  };
  return { setting, warnings };
}

/** An answer to a read; each test hands `parseResponse` the request it stands for. */
function answer(body: unknown, status = 200) {
  const response = new Response(null, { status, headers: { 'x-request-id': 'req_1' } });
  return { response, body, request: GET_ONE };
}

function page(data: unknown[], pagination: unknown = { page: 1, total_pages: 1 }) {
  return { data, pagination };
}

function invalidResponse(call: () => unknown): InvalidResponseError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidResponseError);
    return error as InvalidResponseError;
  }
  return expect.fail('expected an InvalidResponseError');
}

describe("parseResponse under 'warn'", () => {
  it('returns a record with a field of another type as received, and logs the difference naming the assumption', () => {
    const { setting, warnings } = validation('warn');
    const body = page([records.recognition(), records.recognition({ points: '10' })]);

    expect(parseResponse(recognitionPage, answer(body), LIST, setting)).toBe(body);
    expect(warnings).toEqual([
      'GET /v1/recognitions: data.1.points is a string, but the SDK assumes it must be a number (contract §3). The record is returned as received.',
    ]);
  });

  it('returns a record that lacks an assumed field, and keeps fields it does not know', () => {
    const { setting, warnings } = validation('warn');
    const { created_at: _createdAt, ...recognition } = records.recognition({ mood: 'grateful' });
    const body = { data: recognition };

    expect(parseResponse(recognitionBody, answer(body), GET_ONE, setting)).toEqual({
      data: { ...recognition, mood: 'grateful' },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('data.created_at is missing, but the SDK assumes it is required');
  });

  it('logs once per operation and field path: other records, pages and ids repeat nothing', () => {
    const { setting, warnings } = validation('warn');
    const bad = records.recognition({ points: 1.5 });
    parseResponse(recognitionPage, answer(page([bad, bad])), LIST, setting);
    parseResponse(recognitionPage, answer(page([bad])), LIST, setting);
    parseResponse(recognitionBody, answer({ data: bad }), GET_ONE, setting);
    const other = { method: 'GET', path: `/v1/recognitions/${UUID.alice}` } as const;
    parseResponse(recognitionBody, answer({ data: bad }), other, setting);
    parseResponse(
      recognitionBody,
      answer({ data: records.recognition({ message: null }) }),
      GET_ONE,
      setting,
    );

    expect(warnings).toEqual([
      expect.stringMatching(
        /^GET \/v1\/recognitions: data\.0\.points is a number, but the SDK assumes it must be an integer/,
      ),
      expect.stringMatching(/^GET \/v1\/recognitions\/[0-9a-f-]+: data\.points is a number/),
      expect.stringMatching(/data\.message is null, but the SDK assumes it must be a string/),
    ]);
  });

  it('returns an enumeration value added later and notes it once, without failing', () => {
    const { setting, warnings } = validation('warn');
    const body = { data: records.user({ role: 'auditor' }) };
    const request = { method: 'GET', path: `/v1/users/${UUID.alice}` } as const;

    expect(parseResponse(userBody, answer(body), request, setting)).toBe(body);
    parseResponse(userBody, answer(body), request, setting);
    expect(warnings).toEqual([
      `GET /v1/users/${UUID.alice}: data.role is "auditor", a value this SDK does not know (it knows admin, manager, member); enumerations may gain values (contract §3). The record is returned as received.`,
    ]);
  });
});

describe('parseResponse checks the envelope of a read in every mode', () => {
  it.each<[string, ApiRequest, unknown, string]>([
    ['a body without data', GET_ONE, { recognition: records.recognition() }, 'data is required'],
    ['an empty body', GET_ONE, undefined, '(body) must not be empty'],
    ['a body that is an array', LIST, [records.recognition()], '(body) must be an object'],
    [
      'a record without id',
      GET_ONE,
      { data: records.recognition({ id: undefined }) },
      'data.id is required',
    ],
    [
      'a list record with a numeric id',
      LIST,
      page([records.recognition({ id: 7 })]),
      'data.0.id must be a string',
    ],
    ['a list record that is not an object', LIST, page(['x']), 'data.0 must be an object'],
    [
      'data that is not a list',
      LIST,
      { data: {}, pagination: { page: 1, total_pages: 1 } },
      'data must be an array',
    ],
    ['a missing pagination', LIST, { data: [] }, 'pagination is required'],
    [
      'a total_pages string',
      LIST,
      page([], { page: 1, total_pages: '3' }),
      'pagination.total_pages must be a number',
    ],
  ])('%s is an InvalidResponseError naming the path', (_case, request, body, issue) => {
    for (const mode of ['warn', 'strict', 'off'] as const) {
      const { setting, warnings } = validation(mode);
      const schema = request === LIST ? recognitionPage : recognitionBody;
      const error = invalidResponse(() => parseResponse(schema, answer(body), request, setting));
      expect(error.message).toBe(
        `Unexpected response to ${request.method} ${request.path} (status 200): ${issue}`,
      );
      expect(error).toMatchObject({ status: 200, requestId: 'req_1' });
      expect(warnings).toEqual([]);
    }
  });

  it('reports a 200 that is not JSON', () => {
    const { setting } = validation('off');
    const error = invalidResponse(() =>
      parseResponse(recognitionBody, answer(new NotJson('<html>')), GET_ONE, setting),
    );
    expect(error.issues).toEqual([{ path: '(body)', message: 'must be JSON' }]);
  });

  it('names only the envelope problems, not the record differences it tolerates', () => {
    const { setting } = validation('warn');
    const body = page([records.recognition({ id: undefined, points: 'x' })]);
    const error = invalidResponse(() =>
      parseResponse(recognitionPage, answer(body), LIST, setting),
    );
    expect(error.issues).toEqual([{ path: 'data.0.id', message: 'is required' }]);
  });
});

describe("parseResponse under 'strict' and 'off'", () => {
  it("'strict' fails a read on any difference, naming each", () => {
    const { setting, warnings } = validation('strict');
    const body = { data: records.recognition({ points: '10', recipient: { id: UUID.bob } }) };
    const error = invalidResponse(() =>
      parseResponse(recognitionBody, answer(body), GET_ONE, setting),
    );
    expect(error.issues).toEqual([
      { path: 'data.recipient.name', message: 'is required' },
      { path: 'data.points', message: 'must be a number' },
    ]);
    expect(warnings).toEqual([]);
  });

  it("'strict' accepts an enumeration value added later, as the contract allows, and notes it", () => {
    const { setting, warnings } = validation('strict');
    const body = { data: records.user({ status: 'invited' }) };
    const request = { method: 'GET', path: `/v1/users/${UUID.alice}` } as const;
    expect(parseResponse(userBody, answer(body), request, setting)).toBe(body);
    expect(warnings).toEqual([expect.stringContaining('data.status is "invited"')]);
  });

  it("'off' returns records as received and logs nothing", () => {
    const { setting, warnings } = validation('off');
    const body = page([records.recognition({ points: '10', created_at: 5 })]);
    expect(parseResponse(recognitionPage, answer(body), LIST, setting)).toBe(body);
    expect(warnings).toEqual([]);
  });
});

describe('parseResponse never fails a successful write', () => {
  it.each(['warn', 'strict', 'off'] as const)(
    "under '%s', a create answered without data resolves with the body as received and warns once",
    (mode) => {
      const { setting, warnings } = validation(mode);
      const body = { recognition: records.recognition() };
      expect(parseResponse(recognitionBody, answer(body, 201), CREATE, setting)).toBe(body);
      parseResponse(recognitionBody, answer(body, 201), CREATE, setting);
      expect(warnings).toEqual([
        'POST /v1/recognitions: data is missing, but the SDK assumes it is required (contract §4). The write succeeded, so the call resolves with the body as received; do not repeat it.',
      ]);
    },
  );

  it("under 'strict', a created record that lacks an assumed field resolves and warns", () => {
    const { setting, warnings } = validation('strict');
    const { created_at: _createdAt, ...recognition } = records.recognition();
    const body = { data: recognition };
    expect(parseResponse(recognitionBody, answer(body, 201), CREATE, setting)).toBe(body);
    expect(warnings).toEqual([
      expect.stringContaining('POST /v1/recognitions: data.created_at is missing'),
    ]);
  });

  it.each<[string, unknown, string]>([
    ['not JSON', new NotJson('OK'), 'is not JSON, but the SDK assumes it must be JSON'],
    ['empty', undefined, 'is empty, but the SDK assumes it must not be empty'],
  ])(
    'a write answered with a body that is %s resolves with nothing and warns',
    (_case, body, issue) => {
      const { setting, warnings } = validation('strict');
      const patch = { method: 'PATCH', path: `/v1/webhooks/${UUID.record}` } as const;
      expect(parseResponse(recognitionBody, answer(body, 200), patch, setting)).toBeUndefined();
      expect(warnings).toEqual([
        `PATCH /v1/webhooks/${UUID.record}: (body) ${issue} (contract §4). The write succeeded, so the call resolves with the body as received; do not repeat it.`,
      ]);
    },
  );
});

describe('parseResponse judges every body as zod does', () => {
  // A valid body is judged without zod's parse (which builds a copy parseResponse would drop);
  // whatever that quick verdict answers, the findings must be zod's own.
  const schemas = {
    recognition: recognitionSchema,
    user: userSchema,
    reward: rewardSchema,
    team: teamSchema,
    webhook: webhookSchema,
    budget: budgetSchema,
    summary: analyticsSummarySchema,
  } as const;
  const values: unknown[] = [undefined, null, 'text', '', 0, 1.5, -3, 2 ** 60, true, {}, [], [1]];

  /** Each record with one field replaced by each kind of value, or removed, or one added. */
  function variants(record: Record<string, unknown>): Record<string, unknown>[] {
    const removed = Object.keys(record).map((key) => {
      const { [key]: _, ...rest } = record;
      return rest;
    });
    const replaced = Object.keys(record).flatMap((key) =>
      values.map((value) => ({ ...record, [key]: value })),
    );
    const nested = Object.entries(record).flatMap(([key, inner]) =>
      inner !== null && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.keys(inner).flatMap((field) =>
            values.map((value) => ({ ...record, [key]: { ...inner, [field]: value } })),
          )
        : [],
    );
    return [
      record,
      { ...record, added_later: { any: 'thing' } },
      ...removed,
      ...replaced,
      ...nested,
    ];
  }

  it.each(Object.keys(schemas) as (keyof typeof schemas)[])(
    'reports %s records, alone and in a page, exactly when zod finds an issue',
    (name) => {
      for (const record of variants(records[name]())) {
        for (const [schema, body] of [
          [dataSchema(schemas[name]), { data: record }],
          [pageSchema(schemas[name]), page([records[name](), record])],
        ] as const) {
          const { setting, warnings } = validation('warn');
          parseResponse(schema, answer(body), CREATE, setting);
          expect(warnings.length === 0, JSON.stringify(body)).toBe(schema.safeParse(body).success);
        }
      }
    },
  );

  it('reports a page whose envelope differs exactly when zod finds an issue', () => {
    const envelopes = [
      ...values.map((value) => ({ data: value, pagination: { page: 1, total_pages: 1 } })),
      ...values.map((value) => ({ data: [], pagination: value })),
      ...values.map((value) => ({ data: [], pagination: { page: value, total_pages: 1 } })),
      ...values.map((value) => ({
        data: [],
        pagination: { page: 1, total_pages: 1, next_cursor: value },
      })),
      { data: [] },
      { pagination: { page: 1, total_pages: 1 } },
      ...values,
    ];
    for (const body of envelopes) {
      const { setting, warnings } = validation('warn');
      parseResponse(recognitionPage, answer(body), CREATE, setting);
      expect(warnings.length === 0, JSON.stringify(body)).toBe(
        recognitionPage.safeParse(body).success,
      );
    }
  });
});

describe('parseQuery', () => {
  it('rejects bad query parameters with the 400 the service would answer, local and naming each field', () => {
    let error: unknown;
    try {
      parseQuery(pageParamsSchema, { page: 0, limit: 'ten', per_page: 5 });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      local: true,
      details: [
        { field: 'page', message: 'must be at least 1' },
        { field: 'limit', message: 'must be a number' },
        { field: 'per_page', message: 'is not a parameter of this operation' },
      ],
    });
  });
});
