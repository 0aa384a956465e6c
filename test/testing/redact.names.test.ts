// Which names hold a secret: a header, a query parameter, a form field or a JSON field named for
// one has its value replaced and learned; a name that only looks like one keeps its value.
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

// A value of each header its own, so that one learned is not found in another.
const valueOf = (name: string) => `value(${name})`;

/** What each header of `names` holds after a redaction, by name. */
function headersAfter(names: readonly string[], options = {}): Record<string, string> {
  const requestHeaders = Object.fromEntries(names.map((name) => [name, valueOf(name)]));
  const entry = createRedactor(options).redact(entryOf({ requestHeaders }))!;
  return Object.fromEntries(entry.request.headers.map(({ name, value }) => [name, value]));
}

describe('the names that hold a secret', () => {
  it('are those naming an authorization, cookie, key, token, secret, signature, password, credential, session or assertion, in any case', () => {
    const names = [
      'Authorization',
      'set-COOKIE',
      'x-api-key',
      'x-refresh-token',
      'client_secret',
      'x-hub-signature',
      'password',
      'passwd',
      'x-credentials',
      'x-session-id',
      'client_assertion',
    ];
    expect(Object.values(headersAfter(names))).toEqual(names.map(() => 'REDACTED'));
  });

  it('are not names that end in _type, endpoint, _uri, _url or _supported, in any case', () => {
    const names = [
      'token_type',
      'Token_Endpoint',
      'revocation_endpoint',
      'jwks_URI',
      'session_url',
      'token_endpoint_auth_methods_supported',
      'accept',
    ];
    expect(headersAfter(names)).toEqual(
      Object.fromEntries(names.map((name) => [name, valueOf(name)])),
    );
  });

  it('are secret when such an ending is not at the end', () => {
    const names = ['token_type_hint_key', 'x-endpoint-token', 'key_uri_secret', 'x-session-url2'];
    expect(Object.values(headersAfter(names))).toEqual(names.map(() => 'REDACTED'));
  });

  it('include the parameters the SDK’s own redaction knows, as a whole name only', () => {
    expect(headersAfter(['sig', 'AWSAccessKeyId', 'sigma', 'x-sig'])).toEqual({
      sig: 'REDACTED',
      AWSAccessKeyId: 'REDACTED',
      sigma: valueOf('sigma'),
      'x-sig': valueOf('x-sig'),
    });
  });

  it('include more names given as text (a whole name, any case) or as a pattern', () => {
    expect(
      headersAfter(['X-Tenant', 'x-tenant-id', 'x-internal-route', 'route'], {
        secrets: ['x-TENANT', /^x-internal-/],
      }),
    ).toEqual({
      'X-Tenant': 'REDACTED',
      'x-tenant-id': valueOf('x-tenant-id'),
      'x-internal-route': 'REDACTED',
      route: valueOf('route'),
    });
  });

  it('learn the value they hold, which is then replaced wherever it shows again', () => {
    const entry = createRedactor().redact(
      entryOf({
        requestHeaders: { 'x-session-id': 'sess-4f9a1c77' },
        responseBody: { data: { note: 'your session is sess-4f9a1c77, keep it' } },
      }),
    )!;
    expect(JSON.parse(entry.response.content.text!).data.note).toBe(
      'your session is REDACTED, keep it',
    );
  });
});
