/**
 * readHar names every problem of a document, each at its entry and field, in words a person can
 * act on: the document, the log and its entries, each entry's request, response and body, and
 * the message that lists the first five of them.
 */
import { HarError, type HarProblem, readHar } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';

const request = {
  method: 'GET',
  url: 'https://api.example/v1/users',
  headers: [],
  queryString: [],
  cookies: [],
};
const response = {
  status: 200,
  statusText: 'OK',
  headers: [],
  cookies: [],
  content: { size: 2, mimeType: 'application/json', text: '{}' },
  redirectURL: '',
};
const entry = (
  requestFields: Record<string, unknown> = {},
  responseFields: Record<string, unknown> = {},
) => ({
  startedDateTime: '2026-11-28T09:00:00.000Z',
  time: 1,
  request: { ...request, ...requestFields },
  response: { ...response, ...responseFields },
});
const content = (fields: Record<string, unknown>) => entry({}, { content: fields });
const document = (...entries: unknown[]) => ({
  log: { version: '1.2', creator: { name: 'a tool', version: '1' }, entries },
});

function thrown(value: unknown, name?: string): HarError {
  try {
    readHar(value, name);
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    expect((error as HarError).kind).toBe('structure');
    expect((error as HarError).name).toBe('HarError');
    return error as HarError;
  }
  throw new Error('it did not throw');
}
/** The one problem of a document of `entries`, without its entry index. */
const problemOf = (...entries: unknown[]): Omit<HarProblem, 'entry'> => {
  const [first, ...more] = thrown(document(...entries)).problems;
  expect(more).toEqual([]);
  const { entry: _entry, ...problem } = first!;
  return problem;
};

describe('readHar: the document and its log', () => {
  it.each([
    [null, 'the document is null, not an object'],
    [[], 'the document is a list, not an object'],
    [7, 'the document is number, not an object'],
    [{}, 'log is missing'],
    [{ log: null }, 'log is null, not an object'],
    [{ log: [] }, 'log is a list, not an object'],
    [{ log: 'x' }, 'log is string, not an object'],
    [{ log: {} }, 'log.entries is missing'],
    [{ log: { entries: null } }, 'log.entries is null, not a list'],
  ])('%j: %s', (value, message) => {
    expect(thrown(value, 'calls.har').message).toBe(
      `calls.har is not a HAR 1.2 document: ${message}.`,
    );
  });

  it('keeps the log’s own fields and the entries’ order', () => {
    const read = readHar({
      log: {
        version: '1.2',
        creator: { name: 'a tool', version: '1' },
        comment: 'a note',
        entries: [entry(), entry({ url: 'https://api.example/v1/teams' })],
      },
    });
    expect(read.log).toMatchObject({ version: '1.2', comment: 'a note' });
    expect(read.log.entries.map((each) => each.request.url)).toEqual([
      'https://api.example/v1/users',
      'https://api.example/v1/teams',
    ]);
  });

  it('lists five problems in the message and counts the others, every one in `problems`', () => {
    const bad = (count: number) =>
      thrown(document(...Array.from({ length: count }, () => 'x')), 'calls.har');
    const six = bad(6);
    expect(six.problems).toHaveLength(6);
    expect(six.message).toBe(
      `calls.har is not a HAR 1.2 document: ${[0, 1, 2, 3, 4].map((index) => `entry ${index} is string, not an object`).join('; ')}; and 1 more problem.`,
    );
    expect(bad(7).message).toMatch(/entry 4 is string, not an object; and 2 more problems\.$/);
    expect(bad(5).message).toMatch(/entry 4 is string, not an object\.$/);
  });
});

describe('readHar: each entry’s fields', () => {
  it.each([
    ['an entry that is null', null, { field: '', message: 'is null, not an object' }],
    ['an entry that is a list', [], { field: '', message: 'is a list, not an object' }],
    ['no request', { response }, { field: 'request', message: 'is missing' }],
    [
      'a request that is null',
      { request: null, response },
      { field: 'request', message: 'is null, not an object' },
    ],
    [
      'a request that is a list',
      { request: [], response },
      { field: 'request', message: 'is a list, not an object' },
    ],
    ['no method', entry({ method: undefined }), { field: 'request.method', message: 'is missing' }],
    [
      'an empty method',
      entry({ method: '' }),
      { field: 'request.method', message: 'is string, not a method name' },
    ],
    [
      'a method that is a number',
      entry({ method: 1 }),
      { field: 'request.method', message: 'is number, not a method name' },
    ],
    ['no URL', entry({ url: undefined }), { field: 'request.url', message: 'is missing' }],
    [
      'a URL that is a list',
      entry({ url: [] }),
      { field: 'request.url', message: 'is a list, not a URL' },
    ],
    [
      'a relative URL, shown to 80 characters',
      entry({ url: `/v1/${'u'.repeat(100)}` }),
      {
        field: 'request.url',
        message: `${JSON.stringify(`/v1/${'u'.repeat(76)}`)} is not an absolute URL`,
      },
    ],
    [
      'request headers that are an object',
      entry({ headers: {} }),
      { field: 'request.headers', message: 'is object, not a list' },
    ],
    [
      'a query item that is null',
      entry({ queryString: [null] }),
      { field: 'request.queryString[0]', message: 'is null, not { name, value }' },
    ],
    [
      'a cookie item that is a string',
      entry({ cookies: ['a=b'] }),
      { field: 'request.cookies[0]', message: 'is string, not { name, value }' },
    ],
    [
      'a header name that is a number',
      entry({ headers: [{ name: 1, value: 'a' }] }),
      { field: 'request.headers[0].name', message: 'is number, not a string' },
    ],
    [
      'postData that is a string',
      entry({ postData: 'a=b' }),
      { field: 'request.postData', message: 'is string, not an object' },
    ],
    [
      'postData whose text is a number',
      entry({ postData: { mimeType: 'text/plain', text: 1 } }),
      { field: 'request.postData.text', message: 'is number, not a string' },
    ],
    [
      'postData whose params are an object',
      entry({ postData: { mimeType: 'text/plain', params: {} } }),
      { field: 'request.postData.params', message: 'is object, not a list' },
    ],
    ['no response', { request }, { field: 'response', message: 'is missing' }],
    [
      'no status',
      entry({}, { status: undefined }),
      { field: 'response.status', message: 'is missing' },
    ],
    [
      'a status in a string',
      entry({}, { status: '200' }),
      { field: 'response.status', message: 'is string, not a whole number' },
    ],
    [
      'a status with a fraction',
      entry({}, { status: 200.5 }),
      { field: 'response.status', message: 'is number, not a whole number' },
    ],
    [
      'response cookies that are a string',
      entry({}, { cookies: 'a=b' }),
      { field: 'response.cookies', message: 'is string, not a list' },
    ],
    [
      'content that is a string',
      entry({}, { content: '{}' }),
      { field: 'response.content', message: 'is string, not an object' },
    ],
    [
      'content text that is an object',
      content({ mimeType: 'application/json', text: {} }),
      { field: 'response.content.text', message: 'is object, not a string' },
    ],
    [
      'an encoding other than base64',
      content({ mimeType: 'application/json', text: '{}', encoding: 'gzip' }),
      { field: 'response.content.encoding', message: 'is "gzip": only base64 is known' },
    ],
    [
      'base64 that is not',
      content({ mimeType: 'application/json', text: '{}', encoding: 'base64' }),
      { field: 'response.content.text', message: 'is not base64, as its encoding says' },
    ],
  ])('%s', (_, value, problem) => {
    expect(problemOf(value)).toEqual(problem);
  });

  it('names a request and a response both missing, and each entry by its index', () => {
    expect(thrown(document(entry(), {})).problems).toEqual([
      { entry: 1, field: 'request', message: 'is missing' },
      { entry: 1, field: 'response', message: 'is missing' },
    ]);
  });

  it('names every bad item of a list, not only the first', () => {
    expect(thrown(document(entry({ headers: [{ name: 'a', value: 1 }, null] }))).problems).toEqual([
      { entry: 0, field: 'request.headers[0].value', message: 'is number, not a string' },
      { entry: 0, field: 'request.headers[1]', message: 'is null, not { name, value }' },
    ]);
  });
});
