// Every place a URL shows in a recording (the request's, its query list, redirectURL, a Location,
// a Link, a URL in any text) scrubbed in every part; the parts that hold nothing keep their
// spelling, so that a replay matches them as recorded.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

const UUID = '7d3b0c52-abed-4c6e-9d0a-6a1f2b3cface';

/** A redactor that has learned the person `Jane Roe <jane.roe@corp.example>`. */
function knowingJane() {
  const redactor = createRedactor();
  redactor.redact(
    entryOf({
      responseBody: { data: [{ id: UUID, name: 'Jane Roe', email: 'jane.roe@corp.example' }] },
    }),
  );
  return redactor;
}

describe('the URLs of a recording', () => {
  it('keep the spelling of a path and a query that hold nothing to redact', () => {
    const url = 'https://api.example/v1/a%7Eb/c%2Cd/%41?x=%7E&y=a+b&z=c%20d';
    expect(createRedactor().redact(entryOf({ url: url }))!.request.url).toBe(new URL(url).href);
  });

  it('lose their user info, and have only the segments and the query that hold something rewritten', () => {
    const entry = knowingJane().redact(
      entryOf({
        url: 'https://jane:pw-0123456789@api.example/v1/a%7Eb/Jane/by/jane.roe@corp.example?q=%7E&who=Roe',
      }),
    )!;
    expect(entry.request.url).toBe(
      'https://api.example/v1/a%7Eb/Person1/by/person1%40redacted.invalid?q=%7E&who=Person2',
    );
    expect(entry.request.queryString).toEqual([
      { name: 'q', value: '~' },
      { name: 'who', value: 'Person2' },
    ]);
  });

  it('scrub the names of query parameters too, and redact a secret-named one whatever it holds', () => {
    const entry = knowingJane().redact(
      entryOf({ url: 'https://api.example/v1/x?Jane=1&api_key=k&page=2' }),
    )!;
    expect(entry.request.url).toBe('https://api.example/v1/x?Person1=1&api_key=REDACTED&page=2');
    expect(entry.request.queryString).toEqual([
      { name: 'Person1', value: '1' },
      { name: 'api_key', value: 'REDACTED' },
      { name: 'page', value: '2' },
    ]);
  });

  it('scrub a fragment, where an OAuth implicit grant puts its token', () => {
    const entry = entryOf({
      responseHeaders: { location: 'https://app.example/cb#access_token=at-0123456789&state=s1' },
    });
    entry.response.redirectURL = 'https://app.example/cb#state=s2&id_token=it-0123456789';
    const out = createRedactor().redact(entry)!;
    expect(out.response.headers).toContainEqual({
      name: 'location',
      value: 'https://app.example/cb#access_token=REDACTED&state=s1',
    });
    expect(out.response.redirectURL).toBe('https://app.example/cb#state=s2&id_token=REDACTED');
  });

  it('scrub the request URL’s fragment too', () => {
    const entry = knowingJane().redact(
      entryOf({ url: 'https://api.example/v1/x#token=t-0123456789&by=Jane' }),
    )!;
    expect(entry.request.url).toBe('https://api.example/v1/x#token=REDACTED&by=Person1');
  });

  it('leave an empty redirectURL empty', () => {
    expect(createRedactor().redact(entryOf())!.response.redirectURL).toBe('');
  });

  it('are scrubbed wherever they show in text: a Link header, a message, each in every part', () => {
    const entry = knowingJane().redact(
      entryOf({
        responseHeaders: {
          link: '<https://api.example/v1/users/Jane?cursor=c1&token=t-0123456789>; rel="next"',
        },
        responseBody: { message: 'see https://u:pw-9876543210@files.example/Roe#x, then retry' },
      }),
    )!;
    expect(entry.response.headers).toContainEqual({
      name: 'link',
      value: '<https://api.example/v1/users/Person1?cursor=c1&token=REDACTED>; rel="next"',
    });
    expect(JSON.parse(entry.response.content.text!).message).toBe(
      'see https://files.example/Person2#x, then retry',
    );
  });

  it('that do not parse are scrubbed as text', () => {
    const entry = knowingJane().redact(
      entryOf({
        responseBody: {
          message: 'bad https://Jane:port?token=t-0123456789 and http://localhost:99999/Roe',
        },
      }),
    )!;
    expect(JSON.parse(entry.response.content.text!).message).toBe(
      'bad https://Person1:port?token=REDACTED and http://localhost:99999/Person2',
    );
  });

  it('rewrite a query whose only change is a parameter’s name', () => {
    const entry = knowingJane().redact(entryOf({ url: 'https://api.example/v1/x?Jane=1' }))!;
    expect(entry.request.url).toBe('https://api.example/v1/x?Person1=1');
  });

  it('keep a path segment whose escapes do not decode', () => {
    const entry = createRedactor().redact(entryOf({ url: 'https://api.example/v1/a%zz/b' }))!;
    expect(entry.request.url).toBe('https://api.example/v1/a%zz/b');
  });

  it('that are relative, as a redirectURL may be, are scrubbed as text', () => {
    const entry = entryOf();
    entry.response.redirectURL = '/v1/cb?token=t-0123456789&state=s1';
    expect(createRedactor().redact(entry)!.response.redirectURL).toBe(
      '/v1/cb?token=REDACTED&state=s1',
    );
  });

  it('over plain http are read as URLs too', () => {
    const entry = createRedactor().redact(
      entryOf({ responseBody: { message: 'at http://u:pw-1234567890@files.example/x' } }),
    )!;
    expect(JSON.parse(entry.response.content.text!).message).toBe('at http://files.example/x');
  });
});
