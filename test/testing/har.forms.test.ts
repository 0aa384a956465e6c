/**
 * What the one HAR reader makes of the forms other tools write, into the one form every reader
 * after it reads: bodies in base64 (which are text, which stay bytes), forms as `params`, absent
 * or mistyped optional fields; and the operation a recorded request is.
 */
import { readHar } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';
import {
  binaryString,
  bySendOrder,
  decodeBase64Bytes,
  formText,
  type HarEntry,
  operationOf,
  parseJson,
  toBase64,
} from '../../src/testing/har.js';

const BODY = '{"data":[{"name":"Zoë"}]}';
const base64 = Buffer.from(BODY).toString('base64');

/** The one entry of a document, read. */
function read(
  requestFields: Record<string, unknown> = {},
  responseFields: Record<string, unknown> = {},
): HarEntry {
  const entry = {
    request: { method: 'POST', url: 'https://api.example/v1/users?limit=2', ...requestFields },
    response: { status: 200, ...responseFields },
  };
  return readHar({ log: { entries: [entry] } }).log.entries[0]!;
}
const contentOf = (content: Record<string, unknown>) => read({}, { content }).response.content;

describe('readHar: answers’ bodies', () => {
  it.each([
    'application/json',
    'application/problem+json; charset=utf-8',
    'TEXT/PLAIN',
    'application/xml',
    'application/x-www-form-urlencoded',
    'application/javascript',
  ])('decodes base64 of a %s body into its text', (mimeType) => {
    expect(contentOf({ size: 26, mimeType, text: base64, encoding: 'base64' })).toEqual({
      size: 26,
      mimeType,
      text: BODY,
    });
  });

  it('keeps the base64 of a binary type, and of a textual type whose bytes are not UTF-8', () => {
    for (const [mimeType, text] of [
      ['image/png', base64],
      ['application/json', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64')],
    ]) {
      expect(contentOf({ size: 3, mimeType, text, encoding: 'base64' })).toEqual({
        size: 3,
        mimeType,
        text,
        encoding: 'base64',
      });
    }
  });

  it('gives content absent, a size or type of the wrong type, their defaults', () => {
    expect(read().response.content).toEqual({ size: 0, mimeType: '' });
    expect(contentOf({ size: '2', mimeType: 7, text: '{}' })).toEqual({
      size: 0,
      mimeType: '',
      text: '{}',
    });
    expect(contentOf({ size: 3, mimeType: 7, text: base64, encoding: 'base64' })).toEqual({
      size: 3,
      mimeType: '',
      text: base64,
      encoding: 'base64',
    });
    expect(contentOf({ size: 0, mimeType: 'text/plain', encoding: 'base64' })).toEqual({
      size: 0,
      mimeType: 'text/plain',
      encoding: 'base64',
    });
  });

  it('gives a status text and a redirect URL of the wrong type the empty text, keeping good ones', () => {
    expect(read({}, { statusText: 404, redirectURL: null }).response).toMatchObject({
      statusText: '',
      redirectURL: '',
    });
    expect(read({}, { statusText: 'OK', redirectURL: '/x' }).response).toMatchObject({
      statusText: 'OK',
      redirectURL: '/x',
    });
  });
});

describe('readHar: requests', () => {
  it('keeps the cookies recorded', () => {
    const cookies = [{ name: 'session', value: 'REDACTED' }];
    expect(read({ cookies }, { cookies }).request.cookies).toEqual(cookies);
    expect(read({ cookies }, { cookies }).response.cookies).toEqual(cookies);
  });

  it('gives absent lists as empty ones, the query from the URL', () => {
    const { request, response } = read();
    expect(request).toMatchObject({
      headers: [],
      cookies: [],
      queryString: [{ name: 'limit', value: '2' }],
    });
    expect(response).toMatchObject({ headers: [], cookies: [] });
    expect(read({ queryString: [] }).request.queryString).toEqual([]);
  });

  it('gives a form recorded as params its text, and the form type when it has none', () => {
    const params = [
      { name: 'grant_type', value: 'client_credentials' },
      { name: 'scope', value: 'a b' },
    ];
    expect(read({ postData: { params } }).request.postData).toEqual({
      mimeType: 'application/x-www-form-urlencoded',
      params,
      text: 'grant_type=client_credentials&scope=a+b',
    });
    expect(
      read({ postData: { mimeType: 'multipart/form-data', params } }).request.postData,
    ).toMatchObject({ mimeType: 'multipart/form-data' });
  });

  it('keeps a body’s own text beside its params, and gives no text to an empty form', () => {
    expect(
      read({
        postData: { mimeType: 'text/plain', text: 'raw', params: [{ name: 'a', value: 'b' }] },
      }).request.postData,
    ).toMatchObject({ text: 'raw' });
    expect(read({ postData: { params: [] } }).request.postData).toEqual({
      mimeType: '',
      params: [],
    });
  });
});

describe('operationOf: the operation a request is', () => {
  it.each([
    ['GET', 'https://api.example/v1/users', 'users.list'],
    ['GET', 'https://api.example/v1/users/', 'users.list'],
    ['GET', 'https://api.example/base/v1/users/u1', 'users.get'],
    ['POST', 'https://api.example/v1/recognitions', 'recognitions.create'],
    ['DELETE', 'https://api.example/v1/users', undefined],
    ['GET', 'https://api.example/v1/users/u1/more', undefined],
    ['GET', 'https://api.example/x/v1/users/u1/x/v1/users', undefined],
    ['GET', 'https://api.example/users', undefined],
    ['GET', 'https://api.example/v1', undefined],
    ['POST', 'https://api.example/oauth/token', undefined],
    ['GET', '/v1/users', undefined],
  ])('%s %s: %s', (method, url, operation) => {
    expect(operationOf(method, url)).toBe(operation);
  });
});

describe('the helpers beside the reader', () => {
  it('parseJson: the JSON of a text, or undefined for none and for what is not JSON', () => {
    expect(parseJson('{"a":1}')).toEqual({ a: 1 });
    expect(parseJson('0')).toBe(0);
    for (const text of [undefined, '', '{"a":']) expect(parseJson(text)).toBeUndefined();
  });

  it('formText: pairs as a query holds them', () => {
    expect(
      formText([
        { name: 'a b', value: 'c&d' },
        { name: 'e', value: '' },
      ]),
    ).toBe('a+b=c%26d&e=');
  });

  it('decodeBase64Bytes: padding optional, whitespace between the characters ignored', () => {
    expect([...decodeBase64Bytes('AAEC\n/w')!]).toEqual([0, 1, 2, 255]);
    expect([...decodeBase64Bytes(' A A E C ')!]).toEqual([0, 1, 2]);
    expect(decodeBase64Bytes('A')).toBeUndefined();
  });

  it('toBase64 and binaryString: a body past one chunk, every byte kept in order', () => {
    const bytes = Uint8Array.from({ length: 0x8000 * 2 + 3 }, (_, index) => (index * 7) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(binaryString(bytes)).toBe(Buffer.from(bytes).toString('latin1'));
    expect(binaryString(new Uint8Array())).toBe('');
  });

  it('bySendOrder: by `_sequence`, an entry without one first', () => {
    const entries = [{ _sequence: 3 }, {}, { _sequence: 1 }] as HarEntry[];
    expect(entries.sort(bySendOrder).map((each) => each._sequence)).toEqual([undefined, 1, 3]);
  });
});
