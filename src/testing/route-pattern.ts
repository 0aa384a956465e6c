/**
 * Matches a path against a pattern such as `/v1/recognitions/:id`: `:name` stands for any one
 * segment, a final `*` for any rest. Returns the named segments, or `undefined` on no match.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const wanted = pattern.split('/');
  const given = path.split('/');
  const params: Record<string, string> = {};
  for (const [index, segment] of wanted.entries()) {
    if (segment === '*' && index === wanted.length - 1) return params;
    const value = given[index];
    if (value === undefined) return undefined;
    if (segment.startsWith(':') && value) params[segment.slice(1)] = value;
    else if (segment !== value) return undefined;
  }
  return given.length === wanted.length ? params : undefined;
}
