/**
 * Recordings made in code for the tests of `traffic`'s checks (test/doctor/traffic*.test.ts): a
 * HAR 1.2 document of the exchanges given, read by the one reader as the commands read it.
 */
import { Client } from '@employee-recognition/sdk';
import type { DoctorCheck } from '@employee-recognition/sdk/doctor';
import { type Har, type HarEntry, readHar } from '../../src/testing/har.js';
import { harEntry } from '../support/har-entry.js';

export const BASE = 'https://api.employee-recognition.example';
export const client = new Client({ apiKey: `rk_test_${'0'.repeat(24)}`, logLevel: 'off' });

export const USER = {
  id: '0b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11',
  name: 'Person1 Person2',
  email: 'person1@redacted.invalid',
  role: 'member',
  status: 'active',
  team_id: '1b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11',
  points_balance: 40,
  created_at: '2026-11-21T09:30:00Z',
};
export const RECOGNITION = {
  id: '2b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11',
  sender: { id: USER.id, name: 'Person1 Person2' },
  recipient: { id: '3b6e5a4e-8c1f-4f59-9a53-7e7f0d2f4c11', name: 'Person3 Person4' },
  message: 'Thanks for the review',
  points: 10,
  created_at: '2026-11-21T09:30:00Z',
};
/** The headers every recorded answer carries unless an exchange says otherwise. */
const WINDOW = {
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': '99',
  'x-ratelimit-reset': '1900000000',
  'x-request-id': 'req_1',
};

export interface Exchange {
  method?: string;
  path: string;
  status?: number;
  body?: unknown;
  /** Beside the JSON content type and {@link WINDOW}; `undefined` leaves one of those out. */
  headers?: Record<string, string | undefined>;
  requestHeaders?: Record<string, string>;
  form?: Record<string, string>;
  /** As browsers export it: the body in base64. */
  base64?: boolean;
  /** The body's `mimeType` (`application/json` unless given). */
  mimeType?: string;
  /** The content's comment, such as the recorder's `truncated: …` at its size cap. */
  comment?: string;
  /** Fields of the entry beside the standard ones, as other tools add them (`_id`). */
  extra?: Record<string, unknown>;
}

const pairs = (record: Record<string, string | undefined>) =>
  Object.entries(record).flatMap(([name, value]) => (value === undefined ? [] : [{ name, value }]));

/** One exchange as a HAR entry, before the reader. */
function entryOf(each: Exchange): HarEntry {
  const text =
    each.body === undefined
      ? undefined
      : typeof each.body === 'string'
        ? each.body
        : JSON.stringify(each.body);
  const mimeType = each.mimeType ?? 'application/json';
  return {
    ...harEntry({
      ...(each.method !== undefined && { method: each.method }),
      url: new URL(each.path, BASE).href,
      requestHeaders: pairs(each.requestHeaders ?? {}),
      ...(each.form && {
        postData: { mimeType: 'application/x-www-form-urlencoded', params: pairs(each.form) },
      }),
      ...(each.status !== undefined && { status: each.status }),
      statusText: '',
      responseHeaders: pairs({ 'content-type': mimeType, ...WINDOW, ...each.headers }),
      content: {
        size: text?.length ?? 0,
        mimeType,
        ...(text !== undefined &&
          (each.base64
            ? { text: Buffer.from(text).toString('base64'), encoding: 'base64' }
            : { text })),
        ...(each.comment !== undefined && { comment: each.comment }),
      },
      bodySize: text?.length ?? 0,
    }),
    ...each.extra,
  };
}

/** A HAR 1.2 document of `exchanges`, read by the one reader as the commands read it. */
export function har(...exchanges: Exchange[]): Har {
  return readHar({
    log: {
      version: '1.2',
      creator: { name: 'test', version: '1' },
      entries: exchanges.map(entryOf),
    },
  });
}

/** A list's answer: its records and, unless `undefined`, its pagination object. */
export const page = (
  data: unknown[],
  pagination: unknown = { page: 1, total_pages: 1, next_cursor: null },
) => (pagination === undefined ? { data } : { data, pagination });

export const byId = (checks: DoctorCheck[], id: string) => checks.find((check) => check.id === id)!;
