import { redactShapes } from '../internal/redact.js';
import { LOG_LEVELS, type Logger, type LogLevel } from './config.js';

/**
 * The client's logger behind its level. Every line passes through the redaction of secrets by
 * their shape (internal/redact.ts; a call's own credential is redacted where its line is made),
 * so no level can print a credential or webhook secret, and a logger that throws never fails a
 * call.
 */
export class Log {
  readonly #logger: Logger;
  readonly #rank: number;

  constructor(logger: Logger, level: LogLevel) {
    this.#logger = logger;
    this.#rank = LOG_LEVELS.indexOf(level);
  }

  /** Whether lines of `level` are written: check before building an expensive line. */
  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return LOG_LEVELS.indexOf(level) <= this.#rank;
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
      this.#logger[level](`[employee-recognition] ${redactShapes(message)}`);
    } catch {
      // Logging is an aside: a broken logger must not fail the call it reports on.
    }
  }
}
