// A recording's redaction (docs/testing.md, "What is redacted"): secrets by the name that holds
// them and by their shape, personal data by the list beside the schemas (src/resources/fields.ts).
// Everything is learned as it is seen, so a secret or name is replaced wherever it appears again.
import { PERSONAL_FIELDS, personalFieldsOf } from '../resources/fields.js';
import { type HarEntry, type HarNameValue, operationOf } from './har.js';

/** What stands for a secret in a recording. */
export const REDACTED = 'REDACTED';

/** How a recording is redacted. Secrets are always removed; these options add to the rules. */
export interface RedactOptions {
  /**
   * More names of headers, query parameters, form fields and JSON fields whose values are
   * secret, beside those naming an authorization, cookie, key, token, secret, signature,
   * password, credential or session: a string matches a whole name in any case, a RegExp tests it.
   */
  secrets?: readonly (string | RegExp)[] | undefined;
  /**
   * Whether names and emails become consistent pseudonyms (the default), or stay for a recording
   * that never leaves the machine.
   */
  personal?: boolean | undefined;
  /** Runs last on each redacted entry: returns it, changed or not, or undefined to leave it out. */
  entry?: ((entry: HarEntry) => HarEntry | undefined) | undefined;
}

/** A redaction with what it has learned so far. */
export interface Redactor {
  /** Redacts one entry in place, learning its secrets and names first; undefined when left out. */
  redact(entry: HarEntry): HarEntry | undefined;
  /** Every value of an entry scrubbed again with all learned so far (a recording's last pass). */
  scrub(entry: HarEntry): HarEntry;
}

const SECRET_NAME =
  /authorization|cookie|key|token|secret|signature|passw(?:or)?d|credential|session|assertion/i;
// Names that match the rule but hold no secret: an OAuth answer's `token_type` (`Bearer`), the
// addresses and lists of RFC 8414 metadata (`token_endpoint`, `…_methods_supported`).
const NOT_SECRET = /(?:_type|endpoint|_uri|_url|_supported)$/i;
// Secrets by their shape, wherever they are: webhook secrets, API keys, credentials in a header
// value quoted somewhere, JSON Web Tokens.
const SECRET_SHAPES: readonly [RegExp, string][] = [
  [/whsec_[A-Za-z0-9+/=_-]+/g, REDACTED],
  [/rk_(?:live|test)_[A-Za-z0-9]+/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, REDACTED],
];
// A secret-named field in JSON text that could not be parsed (a body cut at the size cap).
const SECRET_JSON_PAIR =
  /("[^"\\]*(?:key|token|secret|signature|passw(?:or)?d|credential|session)[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const EMAIL_FIELD = /^(?:\w+_)?e?-?mail(?:_?address)?$/i;
// A person's name under the contract's field or another a service may use, in a personal record.
const NAME_FIELD = /^(?:(?:full|display|first|last|given|family|middle|nick|user|sur)_?)?name$/i;
const PSEUDONYM_DOMAIN = '@redacted.invalid';
// The pseudonyms this redaction makes, `person3@redacted.invalid` (`%40` in a query) and `Person5`.
const PSEUDONYM = /(?<![\p{L}\p{N}])(person|Person)(\d+)((?:@|%40)redacted\.invalid)?(?![\p{L}\p{N}])/gu;
// A learned secret shorter than this is not replaced elsewhere: it would garble the file.
const MIN_SECRET_LENGTH = 8;
const FORM = 'application/x-www-form-urlencoded';
const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
// A value that is only an id, a timestamp or a number holds no secret and no name.
const PLAIN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?|[\d.+-]*)$/i;
// What each secret shape starts with: the shapes run only on a value that holds one.
const MAYBE_SECRET = /whsec_|rk_(?:live|test)_|bearer|basic|eyJ/i;
const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';

/** Creates a redaction: one per recording, so that pseudonyms are consistent through a file. */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const extra = options.secrets ?? [];
  const personal = options.personal ?? true;
  const secrets = new Set<string>();
  const emails = new Map<string, string>();
  const nameParts = new Map<string, string>();
  let namePattern: RegExp | undefined;

  const isSecretName = (name: string) =>
    (SECRET_NAME.test(name) && !NOT_SECRET.test(name)) ||
    extra.some((rule) =>
      typeof rule === 'string' ? rule.toLowerCase() === name.toLowerCase() : rule.test(name),
    );

  const learnSecret = (value: string) => {
    if (value.length >= MIN_SECRET_LENGTH && value !== REDACTED) secrets.add(value);
    const credential = /^(?:Bearer|Basic)\s+(\S+)$/i.exec(value)?.[1];
    if (credential === undefined) return;
    learnSecret(credential);
    // Basic credentials are `id:secret` in base64: the secret alone may show elsewhere.
    if (/^Basic/i.test(value)) {
      const decoded = decodeBase64(credential);
      const colon = decoded?.indexOf(':') ?? -1;
      if (colon >= 0) learnSecret(decodeComponent(decoded!.slice(colon + 1)));
    }
  };

  const emailPseudonym = (email: string) => {
    const key = email.toLowerCase();
    if (key.endsWith(PSEUDONYM_DOMAIN)) return email;
    let pseudonym = emails.get(key);
    if (pseudonym === undefined) {
      pseudonym = `person${emails.size + 1}${PSEUDONYM_DOMAIN}`;
      emails.set(key, pseudonym);
    }
    return pseudonym;
  };

  const namesSeen = new Set<string>();
  const learnName = (name: string) => {
    if (namesSeen.has(name)) return;
    namesSeen.add(name);
    for (const part of name.split(/[\s,]+/).flatMap((word) => [word, ...word.split('-')])) {
      const clean = part.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (clean.length < 2 || nameParts.has(clean.toLowerCase())) continue;
      nameParts.set(clean.toLowerCase(), `Person${nameParts.size + 1}`);
      namePattern = undefined;
    }
  };

  const scrubText = (text: string): string => {
    // Most values are ids, timestamps and numbers: nothing to find in them.
    if (PLAIN.test(text)) return text;
    let out = text;
    if (MAYBE_SECRET.test(out)) {
      for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
    }
    for (const secret of secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    if (!personal) return out;
    if (out.includes('@')) out = out.replace(EMAIL, emailPseudonym);
    if (nameParts.size === 0) return out;
    namePattern ??= new RegExp(
      `(?<!${LETTER_OR_DIGIT})(?:${[...nameParts.keys()]
        .sort((a, b) => b.length - a.length)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|')})(?!${LETTER_OR_DIGIT})`,
      'giu',
    );
    const rename = (piece: string) =>
      piece.replace(namePattern!, (part) => nameParts.get(part.toLowerCase()) ?? part);
    // Ids are not personal: a UUID's hex groups (`-ada1-`) stay as they are.
    return UUID_ANYWHERE.test(out)
      ? out
          .split(UUID)
          .map((piece, index) => (index % 2 ? piece : rename(piece)))
          .join('')
      : rename(out);
  };

  // Every string of a JSON value scrubbed; `changed` collects the paths whose value changed.
  const scrubJson = (value: unknown, path: string, changed: string[]): unknown => {
    if (typeof value === 'string') {
      const out = scrubText(value);
      if (out !== value) changed.push(path);
      return out;
    }
    if (Array.isArray(value)) {
      return value.map((item, index) => scrubJson(item, `${path}[${index}]`, changed));
    }
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        scrubJson(item, path ? `${path}.${key}` : key, changed),
      ]),
    );
  };

  // Secret-named fields (any depth) replaced and learned, `email` fields pseudonymised.
  const redactFields = (value: unknown, path: string, changed: string[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => redactFields(item, `${path}[${index}]`, changed));
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(record)) {
      const at = path ? `${path}.${key}` : key;
      if (isSecretName(key) && item !== null && typeof item !== 'object') {
        learnSecret(String(item));
        if (item !== REDACTED) changed.push(at);
        record[key] = REDACTED;
      } else if (personal && EMAIL_FIELD.test(key) && typeof item === 'string') {
        record[key] = emailPseudonym(item);
        changed.push(at);
      } else {
        redactFields(item, at, changed);
      }
    }
  };

  // The personal fields of the records an answer's `data` holds: names learned and replaced.
  const redactRecords = (body: unknown, group: string | undefined) => {
    if (!personal) return;
    for (const { parent, key, kind } of personalFieldsOf(group, body)) {
      const value = parent[key];
      if (typeof value !== 'string') continue;
      if (kind === 'email') parent[key] = emailPseudonym(value);
      else learnName(value);
    }
    // A name the service sends under another field (`display_name`, `full_name`) is a name too.
    const data = (body as { data?: unknown } | null)?.data;
    if (group !== undefined && PERSONAL_FIELDS[group]) learnNamedFields(data);
  };

  const learnNamedFields = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && NAME_FIELD.test(key)) learnName(item);
      else learnNamedFields(item);
    }
  };

  // A body text: JSON and forms field by field, anything else as text. Returns the new text
  // and the fields it changed.
  const redactBody = (
    text: string,
    mimeType: string,
    group: string | undefined,
  ): { text: string; json?: unknown; changed: string[]; params?: HarNameValue[] } => {
    const changed: string[] = [];
    if (mimeType.toLowerCase().startsWith(FORM)) {
      const params = [...new URLSearchParams(text)].map(([name, value]) => {
        if (!isSecretName(name)) return { name, value };
        learnSecret(value);
        changed.push(name);
        return { name, value: REDACTED };
      });
      return {
        text: new URLSearchParams(params.map((p) => [p.name, p.value])).toString(),
        changed,
        params,
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON, or cut at the size cap: secret-named fields by pattern, names seen in it learned.
      if (personal && group !== undefined && PERSONAL_FIELDS[group]?.names) {
        for (const [, name] of text.matchAll(/"name"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) learnName(name!);
      }
      return { text: text.replace(SECRET_JSON_PAIR, `$1"${REDACTED}"`), changed };
    }
    redactFields(json, '', changed);
    redactRecords(json, group);
    return { text, json, changed };
  };

  const redactHeaders = (headers: HarNameValue[]) => {
    for (const header of headers) {
      if (!isSecretName(header.name)) continue;
      learnSecret(header.value);
      header.value = REDACTED;
    }
  };

  // The query's secret-named parameters, in `queryString` and in the URL alike; a URL's user info.
  const redactUrl = (request: HarEntry['request']) => {
    const url = new URL(request.url);
    if (url.password) learnSecret(decodeComponent(url.password));
    url.username = '';
    url.password = '';
    for (const param of request.queryString) {
      if (!isSecretName(param.name)) continue;
      learnSecret(param.value);
      param.value = REDACTED;
    }
    url.search = new URLSearchParams(request.queryString.map((p) => [p.name, p.value])).toString();
    request.url = url.href;
  };

  // The URL's query, the headers: every value but the bodies'.
  const scrubOutside = (entry: HarEntry) => {
    const { request, response } = entry;
    const url = new URL(request.url);
    for (const param of request.queryString) param.value = scrubText(param.value);
    url.search = new URLSearchParams(request.queryString.map((p) => [p.name, p.value])).toString();
    request.url = url.href;
    for (const header of [...request.headers, ...response.headers]) {
      header.value = scrubText(header.value);
    }
  };

  // A body just redacted, scrubbed: JSON value by value (its `changed` paths collected), else text.
  const scrubRedacted = (body: { text: string; json?: unknown; changed: string[] }) =>
    body.json === undefined
      ? scrubText(body.text)
      : JSON.stringify(scrubJson(body.json, '', body.changed));

  const scrub = (entry: HarEntry): HarEntry => {
    const { request, response } = entry;
    scrubOutside(entry);
    const postData = request.postData;
    if (postData?.text !== undefined) {
      const { text, changed } = scrubBody(postData.text);
      postData.text = text;
      if (changed.length) {
        postData._redacted = [...new Set([...(postData._redacted ?? []), ...changed])];
      }
    }
    for (const param of postData?.params ?? []) param.value = scrubText(param.value);
    if (response.content.text !== undefined) {
      response.content.text = scrubBody(response.content.text).text;
    }
    return entry;
  };

  // A body's strings scrubbed: JSON value by value (its keys and structure stay), else as text.
  const scrubBody = (text: string): { text: string; changed: string[] } => {
    const changed: string[] = [];
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { text: scrubText(text), changed };
    }
    return { text: JSON.stringify(scrubJson(json, '', changed)), changed };
  };

  return {
    redact(entry) {
      const { request, response } = entry;
      const group = operationOf(request.method, request.url)?.split('.')[0];
      redactHeaders(request.headers);
      redactUrl(request);
      redactHeaders(response.headers);
      // The answer first: the names it holds are replaced in the request's body too.
      const { content } = response;
      const answer =
        content.text === undefined ? undefined : redactBody(content.text, content.mimeType, group);
      const postData = request.postData;
      const sent =
        postData?.text === undefined
          ? undefined
          : redactBody(postData.text, postData.mimeType, group);
      scrubOutside(entry);
      if (answer) content.text = scrubRedacted(answer);
      if (postData && sent) {
        postData.text = scrubRedacted(sent);
        if (sent.params) postData.params = sent.params;
        for (const param of postData.params ?? []) param.value = scrubText(param.value);
        if (sent.changed.length) postData._redacted = [...new Set(sent.changed)];
      }
      return options.entry ? options.entry(entry) : entry;
    },
    scrub,
  };
}

// UTF-8 text in base64, or undefined when it is not base64.
function decodeBase64(text: string): string | undefined {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(text), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

// A percent-encoded component decoded; itself when malformed.
function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Renumbers a recording's pseudonyms by first appearance in the texts it is given, in their
 * order: the redaction numbers them as answers complete, the file lists entries in the order
 * they were sent, and one session must give one file.
 */
export function createRenumbering(): (text: string) => string {
  const numbers = { person: new Map<string, number>(), Person: new Map<string, number>() };
  return (text) =>
    text.replace(PSEUDONYM, (whole, kind: 'person' | 'Person', number: string, domain = '') => {
      // `person7` without the domain is not one of ours.
      if ((kind === 'person') !== (domain !== '')) return whole;
      const seen = numbers[kind];
      let next = seen.get(number);
      if (next === undefined) seen.set(number, (next = seen.size + 1));
      return `${kind}${next}${domain}`;
    });
}
