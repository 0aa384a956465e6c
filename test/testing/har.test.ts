import { HarError, parseHar, readHar } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';

// One entry as HAR 1.2 allows it at its barest: what other tools write.
const entry = (overrides: Record<string, unknown> = {}) => ({
  startedDateTime: '2026-11-28T09:00:00.000Z',
  time: 12,
  request: {
    method: 'GET',
    url: 'https://api.example/v1/users?limit=2',
    httpVersion: 'HTTP/1.1',
    headers: [],
    queryString: [{ name: 'limit', value: '2' }],
    cookies: [],
    headersSize: -1,
    bodySize: 0,
  },
  response: {
    status: 200,
    statusText: 'OK',
    httpVersion: 'HTTP/1.1',
    headers: [{ name: 'content-type', value: 'application/json' }],
    cookies: [],
    content: { size: 11, mimeType: 'application/json', text: '{"data":[]}' },
    redirectURL: '',
    headersSize: -1,
    bodySize: 11,
  },
  cache: {},
  timings: { send: 0, wait: 10, receive: 2 },
  ...overrides,
});
const har = (...entries: unknown[]) => ({
  log: { version: '1.2', creator: { name: 'another tool', version: '1' }, entries },
});

const thrown = (run: () => unknown): HarError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    return error as HarError;
  }
  throw new Error('it did not throw');
};

describe('readHar: the one reader of HAR documents', () => {
  it('says to parse a string rather than calling it no HAR', () => {
    const error = thrown(() => readHar('{"log":{"entries":[]}}'));
    expect(error.kind).toBe('string');
    expect(error.message).toContain('pass JSON.parse(');
  });

  it('names the entry and field of every problem, checking the whole document first', () => {
    const bad = har(
      entry(),
      entry({ request: { ...entry().request, url: 'not a url' } }),
      entry({ response: { ...entry().response, headers: {} } }),
      entry({ response: { ...entry().response, headers: [{ name: 'x', value: 3 }] } }),
      'an entry',
    );
    const error = thrown(() => readHar(bad));
    expect(error.kind).toBe('structure');
    expect(error.problems).toEqual([
      { entry: 1, field: 'request.url', message: '"not a url" is not an absolute URL' },
      { entry: 2, field: 'response.headers', message: 'is object, not a list' },
      { entry: 3, field: 'response.headers[0].value', message: 'is number, not a string' },
      { entry: 4, field: '', message: 'is string, not an object' },
    ]);
    expect(error.message).toContain('entry 2, response.headers is object, not a list');
    expect(error.message).toContain('entry 4 is string, not an object');
  });

  it('refuses entries that are not a list, naming log.entries', () => {
    expect(thrown(() => readHar({ log: { entries: {} } })).message).toBe(
      'The recording is not a HAR 1.2 document: log.entries is object, not a list.',
    );
  });

  it('reads a form body recorded as postData.params without text, giving its text', () => {
    const read = readHar(
      har(
        entry({
          request: {
            ...entry().request,
            method: 'POST',
            postData: {
              mimeType: 'application/x-www-form-urlencoded',
              params: [
                { name: 'grant_type', value: 'client_credentials' },
                { name: 'scope', value: 'a b' },
              ],
            },
          },
        }),
      ),
    );
    expect(read.log.entries[0]!.request.postData?.text).toBe(
      'grant_type=client_credentials&scope=a+b',
    );
  });

  it('decodes a textual body in base64 and keeps a binary one as it is', () => {
    const json = btoa('{"data":[{"name":"Zoë"}]}'.replace('ë', '\u00c3\u00ab'));
    const read = readHar(
      har(
        entry({
          response: {
            ...entry().response,
            content: { size: 26, mimeType: 'application/json', text: json, encoding: 'base64' },
          },
        }),
        entry({
          response: {
            ...entry().response,
            content: { size: 3, mimeType: 'image/png', text: 'AAEC', encoding: 'base64' },
          },
        }),
      ),
    );
    expect(read.log.entries[0]!.response.content).toMatchObject({
      text: '{"data":[{"name":"Zoë"}]}',
    });
    expect(read.log.entries[0]!.response.content.encoding).toBeUndefined();
    expect(read.log.entries[1]!.response.content).toMatchObject({
      text: 'AAEC',
      encoding: 'base64',
    });
  });

  it('reads an answer without content.text, comments and _ fields, and absent lists', () => {
    const bare = entry({ comment: 'a note', _id: 'abc', _order: 0 });
    const { request } = bare as { request: Record<string, unknown> };
    delete request.queryString;
    delete request.cookies;
    const read = readHar(
      har({
        ...bare,
        response: { ...entry().response, content: { size: 0, mimeType: 'text/plain' } },
      }),
    );
    const [first] = read.log.entries;
    expect(first!.response.content.text).toBeUndefined();
    expect(first!.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(first).toMatchObject({ comment: 'a note', _id: 'abc', _order: 0 });
  });
});

describe('parseHar: a HAR file’s text', () => {
  it('tells text that is not JSON from a file cut short', () => {
    const notJson = thrown(() => parseHar('<html>', 'calls.har'));
    expect(notJson.kind).toBe('not-json');
    expect(notJson.message).toMatch(/^calls\.har is not JSON, so not a HAR file/);
    const cut = JSON.stringify(har(entry())).slice(0, 200);
    const truncated = thrown(() => parseHar(cut, 'calls.har'));
    expect(truncated.kind).toBe('truncated');
    expect(truncated.message).toMatch(/^calls\.har ends early/);
    expect(thrown(() => parseHar('', 'calls.har')).message).toBe(
      'calls.har is empty, not a HAR file.',
    );
  });

  it('reads a .partial left by a killed process, in send order, saying so', () => {
    const lines = [
      JSON.stringify({ ...entry(), _sequence: 2 }),
      JSON.stringify({
        ...entry({ request: { ...entry().request, url: 'https://api.example/v1/teams' } }),
        _sequence: 1,
      }),
      JSON.stringify(entry()).slice(0, 50),
    ];
    const read = parseHar(`${lines.join('\n')}`, 'calls.har.partial');
    expect(read.partial).toBe(true);
    expect(read.har.log.entries.map((each) => each.request.url)).toEqual([
      'https://api.example/v1/teams',
      'https://api.example/v1/users?limit=2',
    ]);
    expect(read.notes[0]).toMatch(/^calls\.har\.partial is a recording's \.partial/);
    expect(read.notes[1]).toMatch(/last line is cut short/);
  });

  it('names the file in a structure problem', () => {
    expect(() => parseHar('{"log":{}}', 'calls.har')).toThrow(
      'calls.har is not a HAR 1.2 document: log.entries is missing.',
    );
  });
});
