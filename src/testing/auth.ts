import { DEFAULT_RATE_LIMIT_TIER, type RateLimitTier, SCOPES, type Scope } from '../contract.js';
import type { Caller } from './operation.js';
import { HttpError } from './validation.js';

/** A credential the mock accepts: an API key or any OAuth access token string. */
export interface MockKey {
  /** The credential, as sent after `Bearer `. */
  key: string;
  /** The scopes it grants; `'*'` (the default) grants all. */
  scopes?: readonly Scope[] | '*' | undefined;
  /** Requests per rate-limit window: 10, 100 (the default) or 1000. */
  rateLimit?: RateLimitTier | undefined;
  /** The user who sends recognitions created with it; default the store's first user. */
  userId?: string | undefined;
}

const BEARER = /^Bearer +(\S+)$/i;

/**
 * Resolves an `Authorization` header to the caller it names, or `undefined` (401): one of `keys`,
 * else what `other` makes of the credential (the tokens the mock's token endpoint issued).
 */
export function createKeyring(
  keys: readonly MockKey[],
  other: (credential: string) => Caller | undefined,
): (authorization: string | null) => Caller | undefined {
  const callers = new Map<string, Caller>(
    keys.map(({ key, scopes = '*', rateLimit = DEFAULT_RATE_LIMIT_TIER, userId }) => [
      key,
      { credential: key, scopes: new Set(scopes === '*' ? SCOPES : scopes), rateLimit, userId },
    ]),
  );
  return (authorization) => {
    const credential = authorization && BEARER.exec(authorization)?.[1];
    return credential ? (callers.get(credential) ?? other(credential)) : undefined;
  };
}

/** 403 `insufficient_scope`, naming the scope, unless the caller has it. */
export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.has(scope)) {
    throw new HttpError(403, `This credential lacks the scope ${scope}.`);
  }
}
