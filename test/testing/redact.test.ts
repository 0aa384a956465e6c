import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/testing/redact.js';
import { entryOf } from './redact-entries.js';

const UUID = '7d3b0c52-abed-4c6e-9d0a-6a1f2b3cface';

describe('the redaction', () => {
  it('removes credentials from every header naming one, and their values wherever they appear again', () => {
    const basic = `Basic ${btoa('rc_client:s3cret-client-secret')}`;
    const entry = createRedactor().redact(
      entryOf({
        requestHeaders: {
          authorization: basic,
          cookie: 'session=abcdefgh12345678',
          'x-api-key': 'custom-key-0123456789',
          'x-session-token': 'tok_0123456789abcdef',
        },
        responseHeaders: { 'set-cookie': 'sid=zzzzzzzzzzzz; HttpOnly' },
        responseBody: {
          error: { message: 'bad secret s3cret-client-secret and key custom-key-0123456789' },
        },
      }),
    )!;
    const text = JSON.stringify(entry);
    for (const secret of [
      's3cret-client-secret',
      'custom-key-0123456789',
      'abcdefgh12345678',
      'zzzzzzzzzzzz',
      'tok_0123456789abcdef',
      btoa('rc_client:s3cret-client-secret'),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(entry.request.headers.every((header) => header.value === 'REDACTED')).toBe(true);
  });

  it('removes secret query parameters and form fields, and secrets by their shape in any text', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl';
    const entry = createRedactor().redact(
      entryOf({
        method: 'POST',
        url: 'https://auth.example/oauth/token?access_token=qqqqqqqqqqqq&signature=ssssssssss&limit=5',
        requestMime: 'application/x-www-form-urlencoded',
        requestBody: 'grant_type=client_credentials&client_id=rc_abc&client_secret=pppppppppppp',
        responseBody: {
          access_token: 'tttttttttttttttt',
          token_type: 'Bearer',
          note: `use whsec_c2VjcmV0c2VjcmV0 or rk_live_${'A'.repeat(24)} or ${jwt}`,
          nested: [{ deeper: { password: 'hunter2hunter2' } }],
        },
      }),
    )!;
    const text = JSON.stringify(entry);
    for (const secret of [
      'qqqqqqqqqqqq',
      'ssssssssss',
      'pppppppppppp',
      'tttttttttttttttt',
      'whsec_',
      'rk_live_',
      jwt,
      'hunter2hunter2',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(new URL(entry.request.url).searchParams.get('limit')).toBe('5');
    expect(entry.request.postData!.params).toContainEqual({ name: 'client_id', value: 'rc_abc' });
    expect(entry.request.postData!._redacted).toEqual(['client_secret']);
    expect(JSON.parse(entry.response.content.text!).token_type).toBe('Bearer');
  });

  it('pseudonymises names and emails consistently, in free text and queries, and leaves ids', () => {
    const redactor = createRedactor();
    const users = redactor.redact(
      entryOf({
        responseBody: {
          data: [
            { id: UUID, name: 'Abed Face', email: 'abed.face@acme.example' },
            {
              id: 'b0b2ef93-a691-4f2e-8d1c-b5c93ba847f9',
              name: 'Jean-Luc Okafor',
              email: 'jl@acme.example',
            },
          ],
        },
      }),
    )!;
    const [abed, jean] = JSON.parse(users.response.content.text!).data;
    expect(abed).toEqual({ id: UUID, name: 'Person1 Person2', email: 'person1@redacted.invalid' });
    expect(jean.name).toBe('Person3 Person6');
    const message = redactor.redact(
      entryOf({
        method: 'POST',
        url: `https://api.example/v1/recognitions?cc=${encodeURIComponent('ABED.FACE@acme.example')}`,
        requestBody: JSON.stringify({
          recipient_id: UUID,
          message: 'Thanks abed, Luc and Jean-Luc! Mail abed.face@acme.example',
        }),
        responseBody: { data: { id: UUID, recipient: { id: UUID, name: 'Abed Face' } } },
      }),
    )!;
    const sent = JSON.parse(message.request.postData!.text!);
    expect(sent).toEqual({
      recipient_id: UUID,
      message: 'Thanks Person1, Person5 and Person3! Mail person1@redacted.invalid',
    });
    expect(message.request.postData!._redacted).toEqual(['message']);
    expect(message.request.queryString).toEqual([
      { name: 'cc', value: 'person1@redacted.invalid' },
    ]);
    expect(JSON.parse(message.response.content.text!).data.recipient.name).toBe('Person1 Person2');
  });

  it('replaces a name learned late in the entries before it, in the last pass', () => {
    const redactor = createRedactor();
    const early = redactor.redact(
      entryOf({
        url: 'https://api.example/v1/teams',
        responseBody: { data: [{ id: UUID, description: 'Led by Priya Novak' }] },
      }),
    )!;
    expect(early.response.content.text).toContain('Priya');
    redactor.redact(
      entryOf({
        responseBody: { data: [{ id: UUID, name: 'Priya Novak', email: 'p@acme.example' }] },
      }),
    );
    expect(redactor.scrub(early).response.content.text).toContain('"Led by Person1 Person2"');
  });

  it('redacts secret-named fields in a body cut at the cap, and learns the names in it', () => {
    const cut =
      '{"data":[{"id":"1","name":"Rosa Haddad","api_key":"kkkkkkkkkkkk"},{"id":"2","name":"Rosa H';
    const entry = createRedactor().redact(entryOf({ responseBody: cut }))!;
    expect(entry.response.content.text).not.toMatch(/Rosa|Haddad|kkkkkkkkkkkk/);
  });

  it('takes more secret names, keeps personal data when asked, and lets a hook drop an entry', () => {
    const extra = createRedactor({
      secrets: ['x-tenant', /^x-internal-/i],
      personal: false,
    }).redact(
      entryOf({
        requestHeaders: {
          'x-tenant': 'acme-tenant',
          'X-Internal-Route': 'blue',
          accept: 'application/json',
        },
        responseBody: { data: [{ id: UUID, name: 'Abed Face', email: 'abed.face@acme.example' }] },
      }),
    )!;
    expect(extra.request.headers).toEqual([
      { name: 'x-tenant', value: 'REDACTED' },
      { name: 'X-Internal-Route', value: 'REDACTED' },
      { name: 'accept', value: 'application/json' },
    ]);
    expect(extra.response.content.text).toContain('abed.face@acme.example');
    const hooked = createRedactor({
      entry: (entry) => (entry.request.url.includes('/v1/users') ? undefined : entry),
    });
    expect(hooked.redact(entryOf())).toBeUndefined();
  });

  it('finds names and emails a service sends under other field names', () => {
    const entry = createRedactor().redact(
      entryOf({
        url: 'https://api.example/v1/recognitions',
        responseBody: {
          data: [
            {
              id: UUID,
              sender: { id: UUID, display_name: 'Wen Kowalski' },
              recipient: { id: UUID, full_name: 'Tess Mensah', work_email: 'not-an-address' },
              message: 'Go Tess!',
            },
          ],
        },
      }),
    )!;
    expect(entry.response.content.text).not.toMatch(/Wen|Kowalski|Tess|Mensah|not-an-address/);
  });

  describe('the holes a probe found, each closed', () => {
    it('redacts a secret-named parameter in redirectURL as in the Location beside it', () => {
      const location = 'https://app.example/callback?token=Qm9vdHN0cmFwVG9rZW4xMjM&state=ok';
      const entry = entryOf({ responseHeaders: { location } });
      entry.response.redirectURL = location;
      const out = createRedactor().redact(entry)!;
      expect(out.response.redirectURL).toBe('https://app.example/callback?token=REDACTED&state=ok');
      expect(JSON.stringify(out)).not.toContain('Qm9vdHN0cmFwVG9rZW4xMjM');
    });

    it('scrubs URL paths: an email and a name learned from a record', () => {
      const redactor = createRedactor();
      redactor.redact(
        entryOf({
          responseBody: { data: [{ id: UUID, name: 'Jane Roe', email: 'jane.roe@corp.example' }] },
        }),
      );
      const out = redactor.redact(
        entryOf({ url: 'https://api.example/v1/users/by-email/jane.roe@corp.example/Jane' }),
      )!;
      expect(out.request.url).toBe(
        'https://api.example/v1/users/by-email/person1%40redacted.invalid/Person1',
      );
    });

    it('redacts sig= and presigned URLs in bodies with the rules of logs and telemetry', () => {
      const presigned =
        'https://bucket.s3.example/report.csv?AWSAccessKeyId=AKIAEXAMPLE1234&Expires=1&Signature=c2lnbmF0dXJlMTIz';
      const out = createRedactor().redact(
        entryOf({
          url: 'https://api.example/v1/exports?sig=c2lnMTIzNDU2Nzg5MA',
          responseBody: {
            data: { download: presigned, note: `Get it at ${presigned}&sig=abcdefgh12345` },
          },
        }),
      )!;
      const text = JSON.stringify(out);
      for (const secret of [
        'c2lnMTIzNDU2Nzg5MA',
        'AKIAEXAMPLE1234',
        'c2lnbmF0dXJlMTIz',
        'abcdefgh12345',
      ]) {
        expect(text).not.toContain(secret);
      }
    });

    it('redacts a learned secret that is an id or all digits where it is a whole value', () => {
      const redactor = createRedactor();
      const token = '7f1c2a9e-3b4d-4e5f-8a6b-7c8d9e0f1a2b';
      redactor.redact(
        entryOf({ responseBody: { access_token: token, refresh_token: '4711084215' } }),
      );
      const out = redactor.redact(
        entryOf({
          url: `https://api.example/v1/echo?ref=${token}`,
          responseBody: { code: '4711084215', ref: token },
        }),
      )!;
      expect(JSON.stringify(out)).not.toMatch(/4711084215|7f1c2a9e-3b4d/);
    });

    it('looks into a base64 body and encodes it again', () => {
      const body = JSON.stringify({ api_key: 'rk_live_abcdefghijklmnopqrstuvwx', note: 'x' });
      const entry = entryOf();
      entry.response.content = {
        size: body.length,
        mimeType: 'application/octet-stream',
        text: btoa(body),
        encoding: 'base64',
      };
      const out = createRedactor().redact(entry)!;
      expect(out.response.content.encoding).toBe('base64');
      expect(JSON.parse(atob(out.response.content.text!))).toEqual({
        api_key: 'REDACTED',
        note: 'x',
      });
    });
  });
});
