/**
 * `doctor webhook`: why a captured delivery's signature does not verify. It names the signature
 * scheme its headers follow, the timestamp's skew, whether the secret has the right form, and
 * whether the signature matches the body as given; when it does not, whether it matches the body
 * as a framework would have re-serialized it (the usual cause). It never shows the secret, a
 * signature or the body: only names, booleans, counts and seconds.
 */
import {
  WEBHOOK_HEADER_ID,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../contract.js';
import { ConfigurationError } from '../core/config.js';
import { decodeBase64, encodeBase64, parseSecret, webCrypto } from '../webhooks/crypto.js';
import { ASSUMPTIONS } from './assumptions.js';
import { MAX_NESTING, nestsTooDeep } from './judge.js';
import { createReport, type DoctorCheck, type DoctorReport, redactReport } from './report.js';

/** A delivery as captured: its headers and its body, exactly as they arrived. */
export interface CapturedDelivery {
  headers: Headers;
  body: string;
}

/** Options of {@link diagnoseDelivery}. */
export interface DiagnoseDeliveryOptions {
  /** The receiver's secret (`whsec_…`). Without it, the secret and signature checks are skipped. */
  secret?: string | undefined;
  /** The clock the skew is measured against, in ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The signature schemes the doctor tells apart, by the headers that mark each. */
const SCHEMES: readonly { scheme: string; name: string; marks: readonly string[] }[] = [
  {
    scheme: 'standard-webhooks',
    name: 'Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)',
    marks: [WEBHOOK_HEADER_SIGNATURE, WEBHOOK_HEADER_ID, WEBHOOK_HEADER_TIMESTAMP],
  },
  {
    scheme: 'svix',
    name: 'Svix (svix-id, svix-timestamp, svix-signature): Standard Webhooks under Svix’s names',
    marks: ['svix-signature', 'svix-id', 'svix-timestamp'],
  },
  { scheme: 'stripe', name: 'Stripe (Stripe-Signature)', marks: ['stripe-signature'] },
  {
    scheme: 'github',
    name: 'GitHub (X-Hub-Signature-256)',
    marks: ['x-hub-signature-256', 'x-hub-signature'],
  },
  { scheme: 'slack', name: 'Slack (X-Slack-Signature)', marks: ['x-slack-signature'] },
  { scheme: 'shopify', name: 'Shopify (X-Shopify-Hmac-Sha256)', marks: ['x-shopify-hmac-sha256'] },
  { scheme: 'twilio', name: 'Twilio (X-Twilio-Signature)', marks: ['x-twilio-signature'] },
];

/** Largest capture read: a delivery is a few kB; anything far larger is not one. */
const MAX_CAPTURE_LENGTH = 16 * 1024 * 1024;

/**
 * A captured delivery read from a file's text: the raw HTTP request (request line, headers, a
 * blank line, the body), or JSON with `headers` (an object, or `[name, value]` pairs, or HAR's
 * `{ name, value }` list) and `body` (a string; an object is re-serialized, and says so), or a
 * HAR entry's `request` with `postData.text`.
 *
 * @throws {ConfigurationError} (option `delivery`) when the text is neither.
 */
export function readCapturedDelivery(text: string): CapturedDelivery {
  if (text.length > MAX_CAPTURE_LENGTH) {
    throw new ConfigurationError(
      'delivery',
      'The capture is larger than 16 MiB: not one delivery.',
    );
  }
  const raw = /^[A-Z]{3,10} \S+ HTTP\/\d(?:\.\d)?\r?\n/.exec(text.replace(/^\uFEFF/, ''));
  if (raw) return readRawRequest(text.replace(/^\uFEFF/, '').slice(raw[0].length));
  if (nestsTooDeep(text)) {
    throw new ConfigurationError(
      'delivery',
      `The capture's JSON nests deeper than ${MAX_NESTING} levels: not one delivery.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigurationError(
      'delivery',
      'The capture is neither a raw HTTP request (POST /path HTTP/1.1, headers, a blank line, the body) nor JSON with headers and body.',
    );
  }
  const capture = (parsed as { request?: unknown } | null)?.request ?? parsed;
  const { headers, body, postData } = (capture ?? {}) as {
    headers?: unknown;
    body?: unknown;
    postData?: { text?: unknown };
  };
  const bodyText =
    typeof body === 'string'
      ? body
      : typeof postData?.text === 'string'
        ? postData.text
        : body !== undefined && body !== null
          ? JSON.stringify(body)
          : undefined;
  if (bodyText === undefined || headers === undefined) {
    throw new ConfigurationError(
      'delivery',
      'The JSON capture needs `headers` and `body` (the body as the string that arrived).',
    );
  }
  return { headers: toHeaders(headers), body: bodyText };
}

function readRawRequest(rest: string): CapturedDelivery {
  const end = /\r?\n\r?\n/.exec(rest);
  const head = end ? rest.slice(0, end.index) : rest;
  let body = end ? rest.slice(end.index + end[0].length) : '';
  const headers = new Headers();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A line no header can be: left out, as a server would refuse it.
    }
  }
  // A capture tool may add a line break after the body: Content-Length says where it ends.
  const declared = headers.get('content-length');
  const length = declared !== null && /^\d{1,10}$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined) {
    const bytes = new TextEncoder().encode(body);
    if (bytes.length > length) body = new TextDecoder().decode(bytes.slice(0, length));
  }
  return { headers, body };
}

function toHeaders(value: unknown): Headers {
  const headers = new Headers();
  const add = (name: unknown, each: unknown) => {
    if (typeof name !== 'string') return;
    for (const one of Array.isArray(each) ? each : [each]) {
      if (typeof one !== 'string' && typeof one !== 'number') continue;
      try {
        headers.append(name, String(one));
      } catch {
        // Not a header a request could carry: left out.
      }
    }
  };
  if (Array.isArray(value)) {
    for (const entry of value) {
      if (Array.isArray(entry)) add(entry[0], entry[1]);
      else if (entry && typeof entry === 'object') {
        add((entry as { name?: unknown }).name, (entry as { value?: unknown }).value);
      }
    }
  } else if (value && typeof value === 'object') {
    for (const [name, each] of Object.entries(value)) add(name, each);
  }
  return headers;
}

/** The ways a framework or a capture changes a body, each tried to find the bytes that were signed. */
// The byte-level changes first: a body re-stringified alike would hide them.
const RESERIALIZATIONS: readonly { name: string; change: (body: string) => string | undefined }[] =
  [
    {
      name: 'a trailing newline added',
      change: (body) => (/\r?\n$/.test(body) ? body.replace(/\r?\n$/, '') : undefined),
    },
    { name: 'a trailing newline removed', change: (body) => `${body}\n` },
    {
      name: 'a byte-order mark (BOM) added',
      change: (body) => (body.startsWith('\uFEFF') ? body.slice(1) : undefined),
    },
    {
      name: 'a byte-order mark (BOM) removed',
      change: (body) => (body.startsWith('\uFEFF') ? undefined : `\uFEFF${body}`),
    },
    {
      name: 'line endings changed to CRLF',
      change: (body) => (body.includes('\r\n') ? body.replace(/\r\n/g, '\n') : undefined),
    },
    {
      name: 'parsed and re-stringified JSON (signed as compact JSON)',
      change: (body) => reparse(body, (value) => writeJson(value, ',', ':', false)),
    },
    {
      name: 'parsed and re-stringified JSON (signed as indented JSON)',
      change: (body) => reparse(body, (value) => JSON.stringify(value, null, 2)),
    },
    {
      name: 'parsed and re-stringified JSON (signed with spaces after , and :)',
      change: (body) => reparse(body, (value) => writeJson(value, ', ', ': ', false)),
    },
    {
      name: 'parsed and re-stringified JSON (signed with non-ASCII characters as \\u escapes)',
      change: (body) => reparse(body, (value) => writeJson(value, ',', ':', true)),
    },
    {
      name: 'parsed and re-stringified JSON (signed with spaces and \\u escapes)',
      change: (body) => reparse(body, (value) => writeJson(value, ', ', ': ', true)),
    },
  ];

function reparse(body: string, write: (value: unknown) => string): string | undefined {
  // Re-serializing walks the whole body: no delivery nests this deep, and the stack would not hold.
  if (nestsTooDeep(body)) return undefined;
  try {
    const value: unknown = JSON.parse(body.replace(/^\uFEFF/, ''));
    const written = write(value);
    return written === body ? undefined : written;
  } catch {
    return undefined;
  }
}

/** JSON with the separators other serializers write (Python's `, ` and `: `), and `\\u` escapes. */
function writeJson(value: unknown, item: string, key: string, ascii: boolean): string {
  const text = (string: string) => {
    const json = JSON.stringify(string);
    return ascii
      ? json.replace(
          /[\u0080-\uffff]/g,
          (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
        )
      : json;
  };
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value))
    return `[${value.map((each) => writeJson(each, item, key, ascii)).join(item)}]`;
  if (value && typeof value === 'object') {
    const members = Object.entries(value).map(
      ([name, each]) => `${text(name)}${key}${writeJson(each, item, key, ascii)}`,
    );
    return `{${members.join(item)}}`;
  }
  return JSON.stringify(value);
}

/**
 * Diagnoses a captured delivery: checks `scheme`, `timestamp`, `secret` and `signature`, as a
 * report in the doctor's format (docs/doctor.md, "doctor webhook"). The secret, the signatures
 * and the body never appear in it.
 */
export async function diagnoseDelivery(
  delivery: CapturedDelivery,
  options: DiagnoseDeliveryOptions = {},
): Promise<DoctorReport> {
  const now = options.now ?? Date.now;
  const { headers, body } = delivery;
  const found = SCHEMES.find(({ marks }) => marks.some((name) => headers.has(name)));
  const checks: DoctorCheck[] = [];
  const assumption = ASSUMPTIONS.webhookScheme;

  // scheme
  const standard = found?.scheme === 'standard-webhooks' || found?.scheme === 'svix';
  const prefix = found?.scheme === 'svix' ? 'svix' : 'webhook';
  const [id, timestamp, signature] = ['id', 'timestamp', 'signature'].map(
    (part) => headers.get(`${prefix}-${part}`) ?? undefined,
  );
  const missing = standard
    ? ['id', 'timestamp', 'signature']
        .filter((_, index) => [id, timestamp, signature][index] === undefined)
        .map((part) => `${prefix}-${part}`)
    : [];
  const schemeDetails = { scheme: found?.scheme ?? 'none', missingHeaders: missing };
  if (!found) {
    checks.push({
      id: 'scheme',
      status: 'fail',
      summary: 'no signature header of any known scheme: this is not a signed delivery',
      fix: 'Capture the request as it arrives, headers included (the webhook-id, webhook-timestamp and webhook-signature headers).',
      assumption,
      details: schemeDetails,
    });
  } else if (!standard) {
    checks.push({
      id: 'scheme',
      status: 'fail',
      summary: `signed as ${found.name}, not as the service signs (Standard Webhooks)`,
      fix: 'This delivery comes from another service, or a proxy re-signed it: verify it with that scheme’s library, or point this receiver at the Employee Recognition service’s deliveries.',
      assumption,
      details: schemeDetails,
    });
  } else if (missing.length > 0) {
    checks.push({
      id: 'scheme',
      status: 'fail',
      summary: `${found.name}, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`,
      fix: 'A proxy or the capture dropped headers: keep every header of the request.',
      assumption,
      details: schemeDetails,
    });
  } else {
    checks.push({
      id: 'scheme',
      status: found.scheme === 'svix' ? 'warn' : 'ok',
      summary: found.name,
      fix:
        found.scheme === 'svix'
          ? 'verifyWebhook reads the webhook-* names: pass the svix-* values under them (the scheme is the same).'
          : undefined,
      assumption,
      details: schemeDetails,
    });
  }

  // timestamp
  const seconds =
    timestamp !== undefined && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : undefined;
  if (!standard || timestamp === undefined) {
    checks.push(skipped('timestamp', 'no Standard Webhooks timestamp to read', ASSUMPTIONS.clock));
  } else if (seconds === undefined) {
    checks.push({
      id: 'timestamp',
      status: 'fail',
      summary: `${prefix}-timestamp is not Unix seconds in digits: every receiver refuses it as invalid_timestamp`,
      fix: 'Capture the header as it arrived; a sender must write Unix seconds.',
      assumption: ASSUMPTIONS.clock,
      details: { skewSeconds: null },
    });
  } else {
    const skewSeconds = Math.floor(now() / 1000) - seconds;
    const size = Math.abs(skewSeconds);
    const within = size <= WEBHOOK_TOLERANCE_SECONDS;
    // A capture only ages into the past: one from the future beyond the tolerance is a clock
    // ahead (the sender's, or this machine's behind), which every receiver refuses live.
    const future = !within && skewSeconds < 0;
    checks.push({
      id: 'timestamp',
      status: within ? 'ok' : future ? 'fail' : 'warn',
      summary: within
        ? `${size} s from this machine's clock, within the ${WEBHOOK_TOLERANCE_SECONDS} s tolerance`
        : future
          ? `${size} s in the future by this machine's clock: the sender's clock is ahead (or this one behind), and every receiver refuses its deliveries as timestamp_too_new`
          : `${size} s old by this machine's clock: a receiver refuses it now as timestamp_too_old`,
      fix: within
        ? undefined
        : future
          ? 'Compare the sender’s clock with this machine’s (NTP on both): a delivery stamped ahead of the receiver by more than the tolerance is refused until the receiver’s clock catches up.'
          : 'If the delivery was just captured, the receiver’s clock is off: synchronize it (NTP). A capture made earlier ages too: its signature can still be checked below.',
      assumption: ASSUMPTIONS.clock,
      details: { skewSeconds },
    });
  }

  // secret
  const secret = options.secret?.trim();
  let key: Uint8Array<ArrayBuffer> | undefined;
  if (secret === undefined || secret === '') {
    checks.push(skipped('secret', 'no secret given (--secret-from <file>)', assumption));
  } else {
    key = parseSecret(secret);
    const bare = !secret.startsWith(WEBHOOK_SECRET_PREFIX) && decodeBase64(secret)?.length;
    checks.push(
      key
        ? {
            id: 'secret',
            status: 'ok',
            summary: `whsec_ and ${key.length} bytes of base64 key`,
            assumption,
            details: { form: 'whsec', keyBytes: key.length },
          }
        : {
            id: 'secret',
            status: 'fail',
            summary: bare
              ? 'base64 without the whsec_ prefix: the SDK refuses a secret without it'
              : secret.startsWith(WEBHOOK_SECRET_PREFIX)
                ? 'whsec_, but what follows is not base64'
                : 'not a webhook secret: it should be whsec_ then base64',
            fix: 'Give the secret exactly as the webhook’s create answered it (webhooks sync --secret-file writes it so), whsec_ included.',
            assumption,
            details: { form: bare ? 'base64-without-prefix' : 'invalid', keyBytes: null },
          },
    );
    // A bare base64 key still checks the signature: the answer helps more than a refusal.
    if (!key && bare) key = decodeBase64(secret);
  }

  // signature
  if (!standard || missing.length > 0) {
    checks.push(skipped('signature', 'no Standard Webhooks signature to check', assumption));
  } else if (!key) {
    checks.push(skipped('signature', 'no usable secret to check it with', assumption));
  } else {
    checks.push(await signatureCheck(secret!, key, id!, timestamp!, signature!, body));
  }

  const report = createReport(checks);
  // Defence in depth: nothing above prints them, and nothing can.
  return redactReport(report, [options.secret ?? '', signature ?? '']);
}

async function signatureCheck(
  secret: string,
  key: Uint8Array<ArrayBuffer>,
  id: string,
  timestamp: string,
  header: string,
  body: string,
): Promise<DoctorCheck> {
  const assumption = ASSUMPTIONS.webhookScheme;
  const entries = header.split(/[\s,]+/);
  const versions = new Set<string>();
  const given = new Set<string>();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (/^v\d+[a-z]?$/.test(entry) && index + 1 < entries.length) {
      versions.add(entry);
      if (entry === WEBHOOK_SIGNATURE_VERSION) given.add(entries[index + 1]!);
      index++;
    }
  }
  const details: Record<string, unknown> = {
    signatures: given.size,
    versions: [...versions],
    matches: false,
    matchesAfter: null,
  };
  if (given.size === 0) {
    return {
      id: 'signature',
      status: 'fail',
      summary: `the signature header holds no ${WEBHOOK_SIGNATURE_VERSION},<base64> entry`,
      fix: 'Capture the header as it arrived: entries are v1,<base64>, separated by spaces.',
      assumption,
      details,
    };
  }
  const matches = async (candidate: string) => {
    const content = { prefix: `${id}.${timestamp}.`, body: candidate };
    return given.has(encodeBase64(await webCrypto.sign(secret, key, content)));
  };
  if (await matches(body)) {
    details.matches = true;
    return {
      id: 'signature',
      status: 'ok',
      summary: 'matches the body as given: verify exactly these bytes, and it verifies',
      assumption,
      details,
    };
  }
  for (const { name, change } of RESERIALIZATIONS) {
    const candidate = change(body);
    if (candidate === undefined || !(await matches(candidate))) continue;
    details.matchesAfter = name;
    return {
      id: 'signature',
      status: 'fail',
      summary: `does not match the body as given, but matches it undone of one change: ${name}. The body was re-serialized before verification`,
      fix: 'Verify the raw body, before any parser: express.raw({ type: "application/json" }) (not express.json()), await request.text() in a Fetch handler, or the SDK’s createWebhookReceiver middleware, which reads the raw bytes itself (docs/webhooks.md).',
      assumption,
      details,
    };
  }
  return {
    id: 'signature',
    status: 'fail',
    summary:
      'matches neither the body as given nor any usual re-serialization of it: the secret is not the one this delivery was signed with',
    fix: 'Use the secret of the webhook that sent it (webhooks list names each URL’s webhook; during a rotation, serve both secrets), and verify the raw body.',
    assumption,
    details,
  };
}

function skipped(id: string, reason: string, assumption: string): DoctorCheck {
  return { id, status: 'skip', summary: reason, assumption, details: {} };
}
