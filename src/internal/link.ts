/**
 * The `Link` header (RFC 8288), read without trusting it: the service's deprecation and sunset
 * pages (src/internal/deprecation.ts) and the next page of a list (src/core/resource.ts) come
 * from it. One bounded, linear pass: the value is cut at 16 KB and 64 links, and no pattern can
 * backtrack over server text.
 */

/**
 * One token of a `Link` value (RFC 8288 §3), in a single forward pass: a `<uri>` (an unclosed `<`
 * runs to the end), a `rel` parameter with its quoted or token value, a quoted string elsewhere
 * (an unclosed quote runs to the end, as quoted-string says), a comma between links, or any other
 * run of text. The alternatives start on different characters, and only the `rel` one can fail
 * once started, over the spaces after a `;` that the next token then takes: each character is read
 * at most twice.
 */
const LINK_TOKEN =
  /<([^>]*)>?|;\s*rel\s*=\s*("(?:[^"\\]|\\.)*"?|[^\s;,"]*)|"(?:[^"\\]|\\.)*"?|,|[^<",;]+|;/gi;

/**
 * The first link of each relation type in a `Link` value (its first 16 KB, 64 links at most), as
 * absolute http(s) URLs without user info; `base` resolves relative ones (the request's URL). A
 * link is its first `<uri>` and its first `rel`, a space-separated list read case-insensitively,
 * up to the next comma outside `<…>` and quotes; a link without both is skipped.
 */
export function readLinks(
  value: string | null,
  base: string | undefined,
): Partial<Record<string, string>> {
  // A `rel` named like a property of every object (`constructor`) is never set: `??=` finds it.
  const found: Partial<Record<string, string>> = {};
  let target: string | undefined;
  let rel: string | undefined;
  let links = 0;
  // A comma after the last link ends it as it ends the others.
  for (const [token, uri, relValue] of `${(value ?? '').slice(0, 16 * 1024)},`.matchAll(
    LINK_TOKEN,
  )) {
    target ??= uri;
    rel ??= relValue;
    if (token === ',') {
      const url = target !== undefined && rel !== undefined && linkUrl(target, base);
      for (const type of url
        ? rel!
            .replace(/\\(.)/g, '$1')
            .toLowerCase()
            .split(/[\s"]+/)
        : []) {
        found[type] ??= url as string;
      }
      if (++links > 63) break;
      target = rel = undefined;
    }
  }
  return found;
}

/** A link's absolute http(s) URL without user info, at most 2,048 characters, or undefined. */
function linkUrl(target: string, base: string | undefined): string | undefined {
  try {
    const url = new URL(target, base);
    url.username = url.password = '';
    return /^https?:$/.test(url.protocol) && url.href.length <= 2048 ? url.href : undefined;
  } catch {
    return undefined;
  }
}
