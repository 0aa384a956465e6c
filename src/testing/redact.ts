// A recording's redaction (docs/testing.md, "What is redacted"): the SDK's one redaction
// (src/internal/redact.ts: secrets by their shape, a credential in every form it is written back),
// extended with what a file needs: secrets by the name that holds them, learned and replaced
// wherever they appear again, whatever their shape; personal data by the list beside the schemas
// (src/resources/fields.ts), as consistent pseudonyms. Every place a URL appears (its path
// included), every header, every body form (base64 decoded first) goes through it.
import { redactCredential, redactShapes } from '../internal/redact.js';
import { PERSONAL_FIELDS, personalFieldsOf } from '../resources/fields.js';
import {
  binaryString,
  decodeBase64Bytes,
  formText,
  type HarEntry,
  type HarNameValue,
  nameValues,
  operationOf,
  toBase64,
} from './har.js';

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
// What a file needs beside the SDK's shapes (src/internal/redact.ts): Basic credentials and
// JSON Web Tokens quoted anywhere, and the value of any secret-named query parameter, in any URL
// (a Location, a redirectURL, a link in a body) or form-like text, on any of its lines.
const FILE_SHAPES = /(?<=\bBasic\s+)[A-Za-z0-9._~+/=-]+|\beyJ[\w-]+\.[\w-]+\.[\w-]*/gi;
const PARAMETER = /(?<=(?:^|[?&;#])([^=&?#;\s"'<>]+)=)[^&#;\s"'<>]*/gm;
// A secret-named field in JSON text that could not be parsed (a body cut at the size cap).
const SECRET_JSON_PAIR =
  /("[^"\\]*(?:key|token|secret|signature|passw(?:or)?d|credential|session)[^"\\]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const EMAIL_FIELD = /^(?:\w+_)?e?-?mail(?:_?address)?$/i;
// A person's name under the contract's field or another a service may use, in a personal record.
const NAME_FIELD = /^(?:(?:full|display|first|last|given|family|middle|nick|user|sur)_?)?name$/i;
const PSEUDONYM_DOMAIN = '@redacted.invalid';
// The pseudonyms this redaction makes, `person3@redacted.invalid` (`%40` in a query) and `Person5`.
const PSEUDONYM =
  /(?<![\p{L}\p{N}])(person|Person)(\d+)((?:@|%40)redacted\.invalid)?(?![\p{L}\p{N}])/gu;
// A learned secret shorter than this is not replaced elsewhere: it would garble the file.
const MIN_SECRET_LENGTH = 8;
const FORM = 'application/x-www-form-urlencoded';
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"`]+/gi;
// A UUID, captured so that splitting a text at it keeps it.
const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
// A value that is only an id, a timestamp or a number holds no secret and no name.
const PLAIN =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?|[\d.+-]*)$/i;
// What each secret shape needs: the shapes run only on a value that holds one.
const MAYBE_SECRET = /whsec_|rk_(?:live|test)_|bearer|basic|eyJ|[@=]/i;
// The longest run of letters and digits of a learned secret, looked for before its every written
// form is (encoders escape neither).
const ALNUM_RUN = /[A-Za-z0-9]{3,}/g;
const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';

/** Creates a redaction: one per recording, so that pseudonyms are consistent through a file. */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const extra = options.secrets ?? [];
  const personal = options.personal ?? true;
  // Each learned secret, with what a text holding it in any form holds (lower-case).
  const secrets = new Map<string, string | undefined>();
  const emails = new Map<string, string>();
  let emailPattern: RegExp | undefined;
  const nameParts = new Map<string, string>();
  let namePattern: RegExp | undefined;

  const isSecretName = (name: string) =>
    (SECRET_NAME.test(name) && !NOT_SECRET.test(name)) ||
    // The parameters the SDK's one redaction knows (`sig`, `AWSAccessKeyId`), asked of it.
    redactShapes(`?${name}=x`, '') === `?${name}=` ||
    extra.some((rule) =>
      typeof rule === 'string' ? rule.toLowerCase() === name.toLowerCase() : rule.test(name),
    );

  const learnSecret = (value: string) => {
    if (value.length >= MIN_SECRET_LENGTH && value !== REDACTED && !secrets.has(value)) {
      const runs = value.match(ALNUM_RUN) ?? [];
      secrets.set(value, runs.sort((a, b) => b.length - a.length)[0]?.toLowerCase());
    }
    const credential = /^(?:Bearer|Basic)\s+(\S+)$/i.exec(value)?.[1];
    if (credential === undefined) return;
    learnSecret(credential);
    // Basic credentials are `id:secret` in base64: the secret alone may show elsewhere.
    if (/^Basic/i.test(value)) {
      const bytes = decodeBase64Bytes(credential);
      const decoded = bytes && new TextDecoder().decode(bytes);
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
      emailPattern = undefined;
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
    let out = text;
    // Learned secrets first, of any shape: one that is an id or all digits is a whole value.
    if (secrets.size) {
      const lower = out.toLowerCase();
      for (const [secret, probe] of secrets) {
        if (probe === undefined || lower.includes(probe)) {
          out = redactCredential(out, secret, REDACTED);
        }
      }
    }
    // Most values are ids, timestamps and numbers: nothing else to find in them.
    if (PLAIN.test(out)) return out;
    // A URL in text (a Link header, a message) in every part, its percent-encoded path included.
    if (out.includes('://')) out = out.replace(URL_IN_TEXT, scrubUrl);
    if (MAYBE_SECRET.test(out)) {
      out = redactShapes(out, REDACTED).replace(FILE_SHAPES, REDACTED);
      if (out.includes('=')) {
        out = out.replace(PARAMETER, (value, name: string) => {
          if (!isSecretName(decodeComponent(name)) || value === REDACTED) return value;
          learnSecret(decodeComponent(value));
          return REDACTED;
        });
      }
    }
    if (!personal) return out;
    // Addresses seen in records by their value first (the pattern takes only a plain part of an
    // unusual one), then any by the pattern.
    if (emails.size) {
      emailPattern ??= new RegExp(alternation(emails.keys()), 'gi');
      out = out.replace(emailPattern, emailPseudonym);
    }
    if (out.includes('@')) out = out.replace(EMAIL, emailPseudonym);
    if (nameParts.size === 0) return out;
    namePattern ??= new RegExp(
      `(?<!${LETTER_OR_DIGIT})(?:${alternation(nameParts.keys())})(?!${LETTER_OR_DIGIT})`,
      'giu',
    );
    const rename = (piece: string) =>
      piece.replace(namePattern!, (part) => nameParts.get(part.toLowerCase()) ?? part);
    // Ids are not personal: a UUID's hex groups (`-ada1-`) stay as they are.
    return UUID.test(out)
      ? out
          .split(UUID)
          .map((piece, index) => (index % 2 ? piece : rename(piece)))
          .join('')
      : rename(out);
  };

  /**
   * A URL scrubbed in every part: user info removed (its password learned), each path segment
   * and query value as text, secret-named parameters redacted. Parts that hold nothing keep their
   * spelling, so a replay matches them as recorded. Text that is no URL is scrubbed as text.
   */
  const scrubUrl = (text: string): string => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      // Left to the steps of scrubText that follow, its caller's: read as text, it would come
      // back here.
      return text;
    }
    if (url.password) learnSecret(decodeComponent(url.password));
    url.username = '';
    url.password = '';
    url.pathname = url.pathname
      .split('/')
      .map((segment) => {
        const decoded = decodeComponent(segment);
        const clean = scrubText(decoded);
        return clean === decoded ? segment : encodeURIComponent(clean);
      })
      .join('/');
    const pairs = nameValues(url.searchParams);
    const clean = scrubPairs(pairs);
    if (clean.some((pair, index) => differs(pair, pairs[index]!))) url.search = formText(clean);
    if (url.hash) url.hash = scrubText(decodeComponent(url.hash));
    return url.href;
  };

  // Names and values (a query, a form): secret-named values redacted and learned, all scrubbed.
  const scrubPairs = (pairs: readonly HarNameValue[]): HarNameValue[] =>
    pairs.map(({ name, value }) => {
      if (isSecretName(name)) {
        learnSecret(value);
        return { name: scrubText(name), value: REDACTED };
      }
      return { name: scrubText(name), value: scrubText(value) };
    });

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
    // A key is scrubbed too: a summary may be keyed by a person's name.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        scrubText(key),
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
      const params = redactPairs(nameValues(new URLSearchParams(text)), changed);
      return { text: formText(params), changed, params };
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

  // Secret-named pairs (headers, a form's fields): values learned and replaced in place, their
  // names in `changed`.
  const redactPairs = (pairs: HarNameValue[], changed: string[] = []) => {
    for (const pair of pairs) {
      if (!isSecretName(pair.name)) continue;
      learnSecret(pair.value);
      changed.push(pair.name);
      pair.value = REDACTED;
    }
    return pairs;
  };

  // The request URL's secrets learned before anything is scrubbed: its password and the values
  // of its secret-named parameters.
  const redactUrl = (request: HarEntry['request']) => {
    const url = new URL(request.url);
    if (url.password) learnSecret(decodeComponent(url.password));
    for (const [name, value] of url.searchParams) if (isSecretName(name)) learnSecret(value);
  };

  // Every value but the bodies': URLs (the request's, `redirectURL`, `Location`), the query, the
  // headers. Secret-named headers were replaced and learned by `redactPairs`.
  const scrubOutside = (entry: HarEntry) => {
    const { request, response } = entry;
    request.url = scrubUrl(request.url);
    request.queryString = scrubPairs(request.queryString);
    // As text, as the Location beside it: a relative one is no URL.
    response.redirectURL &&= scrubText(response.redirectURL);
    for (const header of [...request.headers, ...response.headers]) {
      header.name = scrubText(header.name);
      header.value = scrubText(header.value);
    }
  };

  // A body just redacted, scrubbed: JSON value by value (its `changed` paths collected), else text.
  const scrubRedacted = (body: { text: string; json?: unknown; changed: string[] }) =>
    body.json === undefined
      ? scrubText(body.text)
      : JSON.stringify(scrubJson(body.json, '', body.changed));

  // A form's text with its fields scrubbed (names of fields that changed in `changed`); the
  // same text when nothing changed, so a replay matches it as recorded.
  const scrubForm = (text: string, changed: string[]): string => {
    const pairs = nameValues(new URLSearchParams(text));
    const clean = scrubPairs(pairs);
    clean.forEach((pair, index) => pair.value !== pairs[index]!.value && changed.push(pair.name));
    return changed.length || clean.some((pair, index) => differs(pair, pairs[index]!))
      ? formText(clean)
      : text;
  };

  // A request body scrubbed: a form field by field, JSON value by value, else as text.
  const scrubPostData = (postData: NonNullable<HarEntry['request']['postData']>) => {
    const changed: string[] = [];
    if (postData.text !== undefined) {
      postData.text = postData.mimeType.toLowerCase().startsWith(FORM)
        ? scrubForm(postData.text, changed)
        : scrubBody(postData.text, changed);
    }
    if (postData.params) postData.params = scrubPairs(postData.params);
    // Paths name fields by their keys, which may hold what the body's keys no longer do.
    const paths = [...(postData._redacted ?? []), ...changed].map(scrubText);
    if (paths.length) postData._redacted = [...new Set(paths)];
  };

  // An answer's body through `work` as text: a base64 one decoded first and encoded again.
  const throughText = (
    content: HarEntry['response']['content'],
    work: (text: string) => string,
  ) => {
    if (content.text === undefined) return;
    if (content.encoding !== 'base64') {
      content.text = work(content.text);
      return;
    }
    const decoded = base64Text(content.text);
    if (decoded) content.text = decoded.encode(work(decoded.text));
  };

  const scrub = (entry: HarEntry): HarEntry => {
    const { request, response } = entry;
    scrubOutside(entry);
    if (request.postData) scrubPostData(request.postData);
    throughText(response.content, (text) => scrubBody(text, []));
    return entry;
  };

  // A body's strings scrubbed: JSON value by value (its keys and structure stay), else as text.
  const scrubBody = (text: string, changed: string[]): string => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return scrubText(text);
    }
    return JSON.stringify(scrubJson(json, '', changed));
  };

  return {
    redact(entry) {
      const { request, response } = entry;
      const group = operationOf(request.method, request.url)?.split('.')[0];
      redactPairs(request.headers);
      redactUrl(request);
      redactPairs(response.headers);
      // The answer first: the names it holds are replaced in the request's body too.
      const { content } = response;
      let answer: ReturnType<typeof redactBody> | undefined;
      throughText(content, (text) => {
        answer = redactBody(text, content.mimeType, group);
        return text;
      });
      const postData = request.postData;
      const sent =
        postData?.text === undefined
          ? undefined
          : redactBody(postData.text, postData.mimeType, group);
      scrubOutside(entry);
      throughText(content, () => scrubRedacted(answer!));
      if (postData && sent) {
        postData.text = sent.params
          ? formText(sent.params)
          : sent.json === undefined
            ? sent.text
            : JSON.stringify(sent.json);
        if (sent.params) postData.params = sent.params;
        if (sent.changed.length) postData._redacted = [...new Set(sent.changed)];
      }
      if (postData) scrubPostData(postData);
      return options.entry ? options.entry(entry) : entry;
    },
    scrub,
  };
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

// What a pattern matches for any of `texts`, longest first, each literally.
function alternation(texts: Iterable<string>): string {
  return [...texts]
    .sort((a, b) => b.length - a.length)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
}

// Whether a pair was changed, its name or its value.
const differs = (pair: HarNameValue, was: HarNameValue) =>
  pair.name !== was.name || pair.value !== was.value;

// A base64 body as text (UTF-8, else a character a byte, where ASCII secrets still show) and
// the encoding back.
function base64Text(text: string): { text: string; encode: (text: string) => string } | undefined {
  const bytes = decodeBase64Bytes(text);
  if (bytes === undefined) return undefined;
  try {
    const utf8 = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text: utf8, encode: (out) => toBase64(new TextEncoder().encode(out)) };
  } catch {
    return { text: binaryString(bytes), encode: (out) => btoa(out) };
  }
}
