// A process verifies with a handful of secrets; the bound only guards against callers that pass
// a fresh secret on every request.
export const MAX_CACHED_SECRETS = 16;

/**
 * Stores `value` under `secret` in `cache`, first dropping the oldest entry when the cache is
 * full, and returns `value`. For what is derived from a secret (its decoded or imported key), so
 * that a receiver pays for that once per secret, not on every request.
 */
export function remember<Value>(cache: Map<string, Value>, secret: string, value: Value): Value {
  if (cache.size >= MAX_CACHED_SECRETS) cache.delete(cache.keys().next().value!);
  cache.set(secret, value);
  return value;
}
