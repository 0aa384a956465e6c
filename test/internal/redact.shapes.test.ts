// The secrets the one redaction knows by their shape, each from its first character to its last:
// what ends one, what case it is written in, and what only looks like one.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactShapes } from '../../src/internal/redact.js';

const R = REDACTED;

describe('the secrets known by their shape', () => {
  it('are API keys, live or test, to their last letter or digit', () => {
    expect(redactShapes('rk_live_AbC123-tail rk_test_9 RK_LIVE_x')).toBe(`${R}-tail ${R} ${R}`);
    expect(redactShapes('rk_prod_abc rk_live_ rk_live')).toBe('rk_prod_abc rk_live_ rk_live');
  });

  it('are webhook secrets, base64 or URL-safe, the prefix alone included', () => {
    expect(redactShapes('whsec_ab+/=_-Z9.end whsec_ x')).toBe(`${R}.end ${R} x`);
  });

  it('are bearer credentials in any case, to a space, a quote, a comma or a semicolon', () => {
    expect(
      redactShapes(`Bearer a.b/c+d= bearer t1,x BEARER t2;x Bearer t3"x Bearer t4'x Bearer t5\tx`),
    ).toBe(`Bearer ${R} bearer ${R},x BEARER ${R};x Bearer ${R}"x Bearer ${R}'x Bearer ${R}\tx`);
    expect(redactShapes('Bearer, Bearer\ttab')).toBe('Bearer, Bearer\ttab');
  });

  it('are a URL’s user info, to its @, never across a path, a query, a fragment or a space', () => {
    expect(redactShapes('redis://:p4ss@h ftp://u@h //a:b@c')).toBe(
      `redis://${R}@h ftp://${R}@h //${R}@c`,
    );
    for (const text of ['//a/b@c', '//a?b@c', '//a#b@c', '// a@c', '//a"b@c', "//a'b@c", '//@c']) {
      expect(redactShapes(text)).toBe(text);
    }
  });

  it('are the values of signature and credential parameters, each name whole and in any case', () => {
    const names = [
      'signature',
      'Signature',
      'x-amz-signature',
      'X-Amz-Credential',
      'x-amz-security-token',
      'X-Goog-Signature',
      'x-goog-credential',
      'x-goog-security-token',
      'credential',
      'security-token',
      'sig',
      'AWSAccessKeyId',
      'access_token',
      'CLIENT_SECRET',
    ];
    for (const name of names) {
      for (const before of ['?', '&', ';']) {
        expect(redactShapes(`GET /x${before}${name}=v4lue&next=1`), name).toBe(
          `GET /x${before}${name}=${R}&next=1`,
        );
      }
    }
    expect(redactShapes('?sig=')).toBe(`?sig=${R}`);
  });

  it('end a parameter’s value at a space, a quote, a &, a #, angle brackets, a ), a comma or a semicolon', () => {
    for (const end of [' ', '"', "'", '&', '#', '<', '>', ')', ',', ';', '\n']) {
      expect(redactShapes(`?sig=abc${end}rest`), JSON.stringify(end)).toBe(`?sig=${R}${end}rest`);
    }
    expect(redactShapes('?sig=a/b+c%2F=d')).toBe(`?sig=${R}`);
  });

  it('are not parameters whose name only holds or resembles one, or that no separator starts', () => {
    for (const text of [
      '?design=x',
      '?sigma=x',
      '?xsig=x',
      '?signatures=x',
      'sig=x',
      '#sig=x',
      '?x-amz-sig=x',
      '?x-foo-signature=x',
      '?amz-signature=x',
      '?my_access_token=x',
      '?client_secrets=x',
      '?security_token=x',
    ]) {
      expect(redactShapes(text), text).toBe(text);
    }
  });

  it('are replaced by what the caller gives', () => {
    expect(redactShapes('rk_live_abc and ?sig=1', '***')).toBe('*** and ?sig=***');
  });
});
