/**
 * The one redaction: what every door a byte leaves by (errors and their causes, hook contexts,
 * instrumentation, log lines, recordings, the doctor's reports) passes text through. It knows
 * secrets by their shape ({@link SECRET_PATTERNS}) and the call's own credential by its value, in
 * every form a server or a parser writes it back ({@link redactCredential}). Pure functions that
 * import nothing of the core, the recorder or the resources, so each of them can use it; personal
 * data is the recorder's rule (src/testing/redact.ts), not this one.
 */

/** What stands for a removed secret. */
export const REDACTED = '[redacted]';

/**
 * Secrets by kind, whatever their source: API keys, webhook secrets and any bearer credential; a
 * URL's user info (`https://user:pass@host`); and the value of a query parameter that carries a
 * signature or a credential: `sig`, `Signature`, `AWSAccessKeyId` and `X-Goog-Signature` (the
 * OpenTelemetry URL conventions' list), S3's, Google's and OAuth's others. Each pattern matches
 * the secret alone (what precedes it is looked behind for), so a replacement needs no function.
 * OAuth tokens have no fixed form: the credential of the call at hand is redacted by value
 * ({@link redactSecrets}).
 */
const SECRET_PATTERNS =
  /rk_(?:live|test)_[A-Za-z0-9]+|whsec_[A-Za-z0-9+/=_-]*|(?<=Bearer )[^\s"',;]+|(?<=\/\/)[^\s"'/?#@]+(?=@)|(?<=[?&;](?:(?:x-(?:amz|goog)-)?(?:signature|credential|security-token)|sig|awsaccesskeyid|access_token|client_secret)=)[^\s"'&#<>),;]*/gi;

/** `text` with every secret {@link SECRET_PATTERNS} knows by its shape replaced. */
export function redactShapes(text: string, replacement = REDACTED): string {
  return text.replace(SECRET_PATTERNS, replacement);
}

/** A credential shorter than this would redact ordinary words, and is no secret anyway. */
const MIN_CREDENTIAL_LENGTH = 8;

/**
 * `text` with every secret known by its shape replaced by {@link REDACTED}, and `credential` too
 * (of 8 characters or more) in any form it was written back ({@link redactCredential}).
 */
export function redactSecrets(text: string, credential = '', replacement = REDACTED): string {
  const own =
    credential.length >= MIN_CREDENTIAL_LENGTH
      ? redactCredential(text, credential, replacement)
      : text;
  return redactShapes(own, replacement);
}

/** Whether `text` holds `credential` (of 8 characters or more) in any form it is written back. */
export function holdsCredential(text: string, credential: string): boolean {
  return credential.length >= MIN_CREDENTIAL_LENGTH && redactCredential(text, credential) !== text;
}

// What a server or a parser writes for a character: JSON's `\uXXXX` and `\/`, `\"`, `\\`, and
// runs of percent-encoded UTF-8 bytes; never for a C0 control character, which stays escaped so
// that a server cannot forge a line.
const PERCENT = /(?:%[2-9a-f][\da-f])+/gi;
const JSON_ESCAPES = /\\u(?!00[01])[\da-f]{4}|\\[/"\\]/gi;

/** `text` with its `escapes` written out. */
function unescape(text: string, escapes: RegExp): string {
  return text.replace(escapes, (escape) => {
    // JSON's by hand (one `JSON.parse` per escape made a page of them slow to read).
    if (escape[0] === '\\')
      return escape[1] === 'u' ? String.fromCharCode(parseInt(escape.slice(2), 16)) : escape[1]!;
    try {
      return decodeURIComponent(escape);
    } catch {
      // Not UTF-8: left as it is.
      return escape;
    }
  });
}

/**
 * `text` with `secret` replaced in every form a server or a parser writes it back: as sent;
 * percent-encoded (as `encodeURIComponent` or the URL parser writes it, at any depth, hex digits
 * in either case); JSON-escaped (`\/`, `\"`, `\u002f`, `\u00XX` for any character, PHP's and
 * Python's defaults); or any mix of these. Where it was found in a written form, the text comes
 * back with its escapes written out (a control character's kept escaped).
 */
export function redactCredential(text: string, secret: string, replacement = REDACTED): string {
  // Each order of the two decodings is read, since either may corrupt a form the other wrote last
  // (a secret's own `\/` in a percent-encoded echo; a JSON-escaped cursor in a URL), looked in
  // after each step, as a secret may itself read like an escape (`%20`). The readings are taken
  // shallowest first; the first that finds the secret is shown and read on alone, so that no
  // form is left at another depth (a cursor a service encoded twice, in a URL the SDK encodes
  // once more). A text two orders both lead to is read once, and at most 10 are read: a megabyte of
  // nested escapes takes 0.1 to 0.7 s here, about 3 times what a single order took.
  let shown = text.replaceAll(secret, replacement);
  const read = [shown];
  for (let i = 0; i < read.length && i < 10; i++) {
    for (const escapes of [JSON_ESCAPES, PERCENT]) {
      const next = unescape(read[i]!, escapes);
      const found = next.replaceAll(secret, replacement);
      if (found !== next) {
        // Read on from here alone: the texts queued hold the secret where this one does not.
        read.length = i + 1;
        read.push((shown = found));
        break;
      }
      if (!read.includes(next)) read.push(next);
    }
  }
  return shown;
}

/**
 * `url` as it may be shown: the values of signature and credential parameters (their names and
 * values read as the URL parser reads them, whatever their encoding), its user info and the
 * credential in any form replaced. Text that is no URL is redacted as text.
 */
export function redactUrl(url: string, credential?: string, replacement = REDACTED): string {
  let text = url;
  try {
    const parsed = new URL(url);
    for (const name of new Set(parsed.searchParams.keys())) {
      // A secret parameter's name as the patterns know it, read here after the parser's decoding.
      if (redactShapes(`?${name}=x`) !== `?${name}=x`) parsed.searchParams.set(name, replacement);
    }
    text = parsed.href;
  } catch {
    // Not a URL: its secrets are found by their shape, as in any text.
  }
  return redactSecrets(text, credential, replacement);
}
