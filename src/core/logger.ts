import type { Logger, LogLevel } from './config.js';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

// Secrets by kind, whatever their source: API keys, webhook secrets and any bearer credential;
// a URL's user info (`https://user:pass@host`); and the value of a query parameter that carries
// a signature or a credential (`sig`, `Signature`, `AWSAccessKeyId` and `X-Goog-Signature`, the
// OpenTelemetry URL conventions' list, and S3's, Google's and OAuth's others). OAuth tokens have
// no fixed form; the credential of the call at hand is redacted by value too.
const SECRET_PATTERNS =
  /rk_(?:live|test)_[A-Za-z0-9]+|whsec_[A-Za-z0-9+/=_-]*|(?<=Bearer )[^\s"',;]+|(?<=\/\/)[^\s"'/?#@]+(?=@)|(?<=[?&;](?:(?:x-(?:amz|goog)-)?(?:signature|credential|security-token)|sig|awsaccesskeyid|access_token|client_secret)=)[^\s"'&#<>),;]*/gi;

/**
 * `text` with every API key, webhook secret, bearer credential, URL user info and signature
 * parameter's value replaced by `[redacted]`, and the given credential too, in whatever form it
 * was written.
 */
export function redactSecrets(text: string, credential?: string): string {
  let own = text;
  // A very short credential would redact ordinary words; such a one is no secret anyway.
  if (credential && credential.length >= 8) {
    // As sent, and percent-encoded as a server writes it into a URL or a form.
    for (const form of new Set([credential, encodeURIComponent(credential)])) {
      own = own.replaceAll(form, '[redacted]');
    }
  }
  // Each pattern matches the secret alone (what precedes it is looked behind for), so the
  // replacement needs no function.
  return own.replace(SECRET_PATTERNS, '[redacted]');
}

/**
 * The client's logger behind its level. Every line passes through {@link redactSecrets}, so no
 * level can print a credential or webhook secret, and a logger that throws never fails a call.
 */
export class Log {
  readonly #logger: Logger;
  readonly #rank: number;

  constructor(logger: Logger, level: LogLevel) {
    this.#logger = logger;
    this.#rank = RANK[level];
  }

  /** Whether lines of `level` are written: check before building an expensive line. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] <= this.#rank;
  }

  debug(message: string): void {
    this.#write('debug', message);
  }

  info(message: string): void {
    this.#write('info', message);
  }

  warn(message: string): void {
    this.#write('warn', message);
  }

  error(message: string): void {
    this.#write('error', message);
  }

  #write(level: Exclude<LogLevel, 'off'>, message: string): void {
    if (!this.enabled(level)) return;
    try {
      this.#logger[level](`[employee-recognition] ${redactSecrets(message)}`);
    } catch {
      // Logging is an aside: a broken logger must not fail the call it reports on.
    }
  }
}
