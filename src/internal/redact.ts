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

// Query parameters that carry a signature or a credential: `sig`, `Signature`, `AWSAccessKeyId`
// and `X-Goog-Signature` (the OpenTelemetry URL conventions' list), S3's, Google's and OAuth's others.
const SECRET_PARAMETER =
  '(?:x-(?:amz|goog)-)?(?:signature|credential|security-token)|sig|awsaccesskeyid|access_token|client_secret';

/**
 * Secrets by kind, whatever their source: API keys, webhook secrets and any bearer credential; a
 * URL's user info (`https://user:pass@host`); and the value of a query parameter that carries a
 * signature or a credential. Each pattern matches the secret alone (what precedes it is looked
 * behind for), so a replacement needs no function. OAuth tokens have no fixed form: the
 * credential of the call at hand is redacted by value ({@link redactSecrets}).
 */
export const SECRET_PATTERNS = new RegExp(
  `rk_(?:live|test)_[A-Za-z0-9]+|whsec_[A-Za-z0-9+/=_-]*|(?<=Bearer )[^\\s"',;]+|(?<=\\/\\/)[^\\s"'/?#@]+(?=@)|(?<=[?&;](?:${SECRET_PARAMETER})=)[^\\s"'&#<>),;]*`,
  'gi',
);
/** Made at redactUrl's first call: a bundle without it (the Client's) carries none of it. */
let secretParameterName: RegExp | undefined;

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

/** The patterns of the secrets redacted lately: a client redacts with the same few for long. */
const known = new Map<string, RegExp>();

/**
 * `text` with `secret` replaced in every form a server or a parser writes it back: as sent;
 * percent-encoded, as `encodeURIComponent`, the URL parser (only `"`, `<`, `{`…, and a backslash
 * in a path as `/`) or a form (a space as `+`) write it, twice-encoded, hex digits in either case; JSON-escaped (`\/`, `\"`, `\u002f`,
 * `\u00XX` for any character, PHP's and Python's defaults); or any mix of these, character by
 * character. Case-insensitive: a secret echoed in another case is no less one.
 */
export function redactCredential(text: string, secret: string, replacement = REDACTED): string {
  let pattern = known.get(secret);
  if (!pattern) {
    let source = '';
    for (const char of secret) {
      const forms = [
        escapeUnits(char),
        escapeUnits(char, '\\\\u'),
        [...new TextEncoder().encode(char)].map((byte) => `%(?:25)?${hex(byte, 2)}`).join(''),
      ];
      const escaped = JSON.stringify(char).slice(1, -1);
      if (escaped.length === 2) forms.push(escapeUnits(escaped));
      if (char === '/') forms.push('\\\\/');
      // The URL parser writes a backslash in a path as a slash.
      if (char === '\\') forms.push('/');
      if (char === ' ') forms.push('\\+');
      source += `(?:${forms.join('|')})`;
    }
    // Bounded: a token function hands out a new credential every hour.
    if (known.size >= 8) known.clear();
    known.set(secret, (pattern = new RegExp(source, 'gi')));
  }
  return text.replace(pattern, replacement);
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
      secretParameterName ??= new RegExp(`^(?:${SECRET_PARAMETER})$`, 'i');
      if (secretParameterName.test(name)) parsed.searchParams.set(name, replacement);
    }
    text = parsed.href;
  } catch {
    // Not a URL: its secrets are found by their shape, as in any text.
  }
  return redactSecrets(text, credential, replacement);
}

/**
 * Each UTF-16 unit of `text` as `\uXXXX`: in a pattern, which no character can break out of, or
 * shown (core/errors.ts's escapeControls); with `prefix` `\\\\u`, as a pattern of its JSON escape
 * `\uXXXX` (a backslash, then `uXXXX`).
 */
export function escapeUnits(text: string, prefix = '\\u'): string {
  return text.replace(/[\s\S]/g, (unit) => `${prefix}${hex(unit.charCodeAt(0), 4)}`);
}

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0');
}
