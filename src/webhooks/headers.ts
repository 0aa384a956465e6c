/**
 * Request headers: a Fetch `Headers`, or a plain object as Node's `req.headers` and Express give
 * them (names in any case, values possibly arrays). The last member admits interfaces without an
 * index signature, such as the headers `signWebhook` returns.
 */
export type WebhookRequestHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined }
  | {
      // The Standard Webhooks names, as WEBHOOK_HEADER_* in contract.ts; written out so the
      // public type shows them rather than internal constants.
      readonly [name in 'webhook-id' | 'webhook-timestamp' | 'webhook-signature']?:
        string | readonly string[];
    };

/**
 * The values of the headers `names` (lower case), in that order, each `undefined` when absent or
 * empty. Repeated values are joined with `, `, as `Headers.get` does, so both forms verify alike.
 * A plain object is read in one pass over its keys, comparing each key as it is before lowering
 * its case: Node gives the names in lower case already.
 */
export function readHeaders(headers: unknown, names: readonly string[]): (string | undefined)[] {
  if (typeof headers !== 'object' || headers === null) return [];
  if (typeof (headers as Headers).get === 'function') {
    return names.map((name) => {
      const value: unknown = (headers as Headers).get(name);
      return typeof value === 'string' && value ? value : undefined;
    });
  }
  const values: (string | undefined)[] = [];
  for (const key of Object.keys(headers)) {
    let index = names.indexOf(key);
    if (index < 0) index = names.indexOf(key.toLowerCase());
    if (index < 0) continue;
    const value: unknown = (headers as Record<string, unknown>)[key];
    if (Array.isArray(value)) for (const each of value as unknown[]) append(values, index, each);
    else append(values, index, value);
  }
  // An empty value counts as absent, as it does for Headers.get.
  for (let index = 0; index < names.length; index++) values[index] ||= undefined;
  return values;
}

function append(values: (string | undefined)[], index: number, value: unknown): void {
  if (typeof value !== 'string') return;
  const joined = values[index];
  values[index] = joined === undefined ? value : `${joined}, ${value}`;
}
