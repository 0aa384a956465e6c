// The recorder (docs/testing.md, "Recording real traffic"): a fetch that hands the app exactly
// what the wrapped fetch gave it, and writes each request and answer as a redacted HAR entry,
// kept in memory or streamed to a file.
import type * as NodeFs from 'node:fs';
import { USER_AGENT_PRODUCT } from '../contract.js';
import { EmployeeRecognitionError } from '../core/errors.js';
import { VERSION } from '../version.js';
import { bySendOrder, type Har, type HarEntry, nameValues, toBase64 } from './har.js';
import { createRedactor, createRenumbering, type RedactOptions } from './redact.js';

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /**
   * Streams each entry to this file as it completes, rather than holding the recording in
   * memory (Node only); `close()` then finishes the HAR there. Without it, `har()` and `save()`.
   */
  file?: string | undefined;
  /**
   * Records only requests whose URL starts with one of these, such as the client's `baseUrl` and
   * the authorization server's address; others pass through unrecorded. Default every request.
   */
  urls?: readonly string[] | undefined;
  /** A body longer than this many bytes is cut there and its entry marked. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
  /** Entries held in memory without `file`; later ones are counted, not kept. Default 1000. */
  maxEntries?: number | undefined;
  /** What is redacted beside the defaults, which always apply. */
  redact?: RedactOptions | undefined;
  /** The fetch to record; default the global `fetch`, looked up on each call. */
  fetch?: typeof globalThis.fetch | undefined;
}

/** Records the requests made through its `fetch` as HAR 1.2, redacted. */
export interface Recorder {
  /** Pass it to the client (`new Client({ fetch })`) and to `clientCredentials({ fetch })`. */
  readonly fetch: typeof globalThis.fetch;
  /** The recording so far as a HAR 1.2 object; not for a recorder that streams to a file. */
  har(): Har;
  /** Writes {@link Recorder.har} to a file as JSON (Node only). */
  save(path: string): Promise<void>;
  /**
   * Cuts the bodies still being read where they are, writes their entries, and finishes the
   * file of the `file` option. Calls made later are not recorded.
   */
  close(): Promise<void>;
}

/** The recorder with what the preload and the CLI need beside it. */
export interface FileRecorder extends Omit<Recorder, 'har' | 'save'> {
  /** The entries held in memory, without a file; `har()` makes them a HAR. */
  readonly held: readonly HarEntry[] | undefined;
  /** The last pass over the recording so far (`har()` and the file's end run it). */
  last(): LastPass;
  /** Finishes the file from an `exit` handler, where nothing can be awaited. */
  closeSync(): void;
  /** Stops and removes the `.partial`, leaving the file as it was: nothing worth keeping was sent. */
  discard(): void;
  /** Entries recorded so far. */
  readonly recorded: number;
  /** Requests the SDK sent (by its user agent) that `urls` left out, by origin. */
  readonly unrecorded: ReadonlyMap<string, number>;
}

/** {@link startRecorder}'s options: a recorder's, and how the preload and the CLI write files. */
export interface StartOptions extends RecorderOptions {
  /**
   * node:fs, given by a caller that may finish the file synchronously (the preload's `exit`
   * handler) or must know at once that it cannot be written (`--record`): the `.partial` is
   * created now, and a refusal thrown.
   */
  fs?: FileSystem | undefined;
  /** Says what the recorder did on the caller's behalf, such as moving a stale `.partial` aside. */
  say?: ((line: string) => void) | undefined;
}

/**
 * The calls of node:fs a recording's file needs: what the preload imports by name, since a
 * namespace import of a built-in costs a bundle its interop helpers.
 */
type FileSystem = Pick<
  typeof NodeFs,
  | 'closeSync'
  | 'constants'
  | 'fstatSync'
  | 'fsyncSync'
  | 'lstatSync'
  | 'openSync'
  | 'readSync'
  | 'renameSync'
  | 'rmSync'
  | 'writeSync'
>;

type Fetch = typeof globalThis.fetch;
type Body = { text: string; size: number; kept: number; truncated: boolean; encoding?: string };

const DEFAULTS = { maxBodyBytes: 1_048_576, maxEntries: 1000 };
const TEXTUAL = /json|text|xml|x-www-form-urlencoded|javascript/i;
// Not a literal specifier, so bundlers leave it alone and the testing entry still bundles for
// browsers, where a recorder keeps its entries in memory.
const NODE_FS = 'node:fs';

/**
 * Creates a recorder: `new Client({ fetch: recorder.fetch })` records every call of the client.
 * The app sees the same answers, errors and timings, and no extra request is made.
 */
export function createRecorder(options: RecorderOptions = {}): Recorder {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const maxEntries = options.maxEntries ?? DEFAULTS.maxEntries;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) {
    throw new RangeError('maxBodyBytes must be a whole number of bytes, 0 or more');
  }
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 0) {
    throw new RangeError('maxEntries must be a whole number, 0 or more');
  }
  const recorder = startRecorder(options);
  const har = (): Har => {
    if (!recorder.held) {
      throw new TypeError(`This recorder streams to ${options.file}: read it after close()`);
    }
    const { line, comment } = recorder.last();
    return harOf(
      [...recorder.held].sort(bySendOrder).map((entry) => JSON.parse(line(structuredClone(entry)))),
      comment,
    );
  };
  return Object.assign(recorder, {
    har,
    async save(path: string) {
      const fs = (await import(
        /* webpackIgnore: true */ /* @vite-ignore */ NODE_FS
      )) as typeof NodeFs;
      await fs.promises.writeFile(path, `${JSON.stringify(har(), null, 2)}\n`);
    },
  });
}

/**
 * {@link createRecorder} with what the preload and the CLI need beside it, and without what
 * they never use (its options' checks, `save()`), which keeps them out of the preload's bundle:
 * its callers give only checked options.
 */
export function startRecorder(options: StartOptions = {}): FileRecorder {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const maxEntries = options.maxEntries ?? DEFAULTS.maxEntries;
  const redactor = createRedactor(options.redact);
  const entries: HarEntry[] = [];
  const readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  const inFlight = new Set<Promise<void>>();
  const file =
    options.file === undefined
      ? undefined
      : createFileSink(
          options.file,
          options.say ?? ((line) => console.warn(`[employee-recognition] record: ${line}`)),
          options.fs,
        );
  const unrecorded = new Map<string, number>();
  let sent = 0;
  let recorded = 0;
  let left = 0;
  let closed = false;

  let failed = 0;
  // An entry completed in the background: whatever goes wrong with it (a hook of `redact` that
  // throws, a file that cannot be written) costs the entry, never the app's call.
  const track = (work: () => Promise<HarEntry>) => {
    const done = (async () => {
      try {
        const redacted = redactor.redact(await work());
        if (redacted === undefined) return;
        if (file) file.write(redacted);
        else if (entries.length < maxEntries) entries.push(redacted);
        else return void left++;
        recorded++;
      } catch {
        failed++;
      }
    })();
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  // A body read up to the cap; the reader is cancelled there, or when the recorder closes.
  const read = async (stream: ReadableStream<Uint8Array> | string | null, mimeType: string) => {
    if (stream === null) return undefined;
    if (typeof stream === 'string') {
      const bytes = new TextEncoder().encode(stream);
      const kept = bytes.subarray(0, maxBodyBytes);
      return encodeBody(kept, bytes.byteLength, kept.byteLength < bytes.byteLength, mimeType);
    }
    const reader = stream.getReader();
    readers.add(reader);
    const chunks: Uint8Array[] = [];
    let size = 0;
    let truncated = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        size += value.byteLength;
        if (size > maxBodyBytes) {
          truncated = true;
          break;
        }
      }
    } catch {
      truncated = true;
    } finally {
      readers.delete(reader);
      if (truncated) void reader.cancel().catch(() => {});
    }
    truncated ||= closed;
    return encodeBody(concat(chunks, Math.min(size, maxBodyBytes)), size, truncated, mimeType);
  };

  const recordingFetch: Fetch = async (input, init) => {
    const base = options.fetch ?? globalThis.fetch;
    let request: RequestFacts;
    try {
      request = describeRequest(input as string | URL | Request, init);
    } catch {
      // What fetch itself refuses (bad headers): its own error, unrecorded.
      return base(input, init);
    }
    if (!closed && !recordable(request.url, options.urls)) {
      if (request.headers.get('user-agent')?.startsWith(`${USER_AGENT_PRODUCT}/`)) {
        const { origin } = new URL(request.url);
        unrecorded.set(origin, (unrecorded.get(origin) ?? 0) + 1);
      }
    }
    if (closed || !recordable(request.url, options.urls)) return base(input, init);
    // The order of sending, which the recording keeps whatever order the answers complete in.
    const sequence = ++sent;
    // Read from a copy, so the body the wrapped fetch sends is untouched.
    const requestBody =
      init?.body !== undefined && init.body !== null
        ? bodyFromInit(init.body)
        : cloneBody(request.source);
    const readSent = () => read(requestBody, request.headers.get('content-type') ?? '');
    const startedDateTime = new Date().toISOString();
    const start = performance.now();
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      // The app gets its error at once; the entry of a call that got no answer follows.
      const wait = performance.now() - start;
      if (!request.signal?.aborted) {
        track(async () =>
          toEntry(
            request,
            await readSent(),
            undefined,
            undefined,
            startedDateTime,
            { wait, receive: 0 },
            sequence,
          ),
        );
      }
      throw error;
    }
    const headersAt = performance.now();
    let copy: Response;
    try {
      copy = response.clone();
    } catch {
      // A body already used or locked by the wrapped fetch: the answer goes on unrecorded.
      return response;
    }
    track(async () => {
      const body = await readSent();
      const content = await read(copy.body, copy.headers.get('content-type') ?? '');
      return toEntry(
        request,
        body,
        copy,
        content,
        startedDateTime,
        { wait: headersAt - start, receive: performance.now() - headersAt },
        sequence,
      );
    });
    return response;
  };

  // Each entry, taken in send order, scrubbed with all the recording learned, its pseudonyms
  // numbered by first appearance: one session gives one file, whatever order answers came in;
  // and what the file says of the entries it does not hold.
  const last = (): LastPass => {
    const renumber = createRenumbering();
    return {
      line: (entry) => renumber(JSON.stringify(redactor.scrub(entry))),
      comment:
        [
          ...(left ? [`${entriesOf(left)} left out past maxEntries (${maxEntries})`] : []),
          ...(failed ? [`${entriesOf(failed)} could not be recorded`] : []),
        ].join('; ') || undefined,
    };
  };

  const stop = () => {
    closed = true;
    for (const reader of readers) void reader.cancel().catch(() => {});
  };

  return {
    fetch: recordingFetch,
    held: file ? undefined : entries,
    last,
    get recorded() {
      return recorded;
    },
    unrecorded,
    async close() {
      stop();
      await Promise.all(inFlight);
      await file?.finish(last());
    },
    closeSync() {
      stop();
      file?.finishSync(last());
    },
    discard() {
      stop();
      file?.discard();
    },
  };
}

/** A HAR 1.2 document around `entries`. */
function harOf(entries: HarEntry[], comment?: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: '@employee-recognition/sdk', version: VERSION },
      entries,
      ...(comment === undefined ? {} : { comment }),
    },
  };
}

interface RequestFacts {
  url: string;
  method: string;
  headers: Headers;
  signal: AbortSignal | undefined;
  /** The Request given as input, whose body is read from a clone. */
  source: Request | undefined;
}

// What a fetch call asks for, read without touching a body.
function describeRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): RequestFacts {
  const source = typeof input === 'object' && !(input instanceof URL) ? input : undefined;
  return {
    url: source ? source.url : String(input),
    method: (init?.method ?? source?.method ?? 'GET').toUpperCase(),
    headers: new Headers(init?.headers ?? source?.headers),
    signal: init?.signal ?? source?.signal ?? undefined,
    source: init?.body !== undefined ? undefined : source,
  };
}

// The body of a Request given as input, from a clone; null when it has none or is already used.
function cloneBody(source: Request | undefined): ReadableStream<Uint8Array> | null {
  try {
    return source?.body ? source.clone().body : null;
  } catch {
    return null;
  }
}

// Below one of `urls`: `https://api.example` covers its paths, not `https://api.example.evil`.
function recordable(url: string, urls: readonly string[] | undefined): boolean {
  return (
    urls === undefined ||
    urls.some((prefix) => {
      const base = prefix.replace(/\/+$/, '');
      return url === base || (/^[/?#]/.test(url.slice(base.length)) && url.startsWith(base));
    })
  );
}

// A body given in `init`, as a stream of a copy; a stream of the app's own is not read (reading
// it would take it from the request).
function bodyFromInit(body: BodyInit): ReadableStream<Uint8Array> | string | null {
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof ReadableStream) return null;
  return new Response(body).body;
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const part = chunk.subarray(0, length - at);
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

function encodeBody(bytes: Uint8Array, size: number, truncated: boolean, mimeType: string): Body {
  const kept = bytes.byteLength;
  if (TEXTUAL.test(mimeType) || mimeType === '') {
    return { text: new TextDecoder().decode(bytes), size, kept, truncated };
  }
  return { text: toBase64(bytes), size, kept, truncated, encoding: 'base64' };
}

const entriesOf = (count: number) => `${count} entr${count === 1 ? 'y' : 'ies'}`;

// The mark of a body cut at the cap.
const truncation = (body: Body) =>
  body.truncated ? { comment: `truncated: ${body.kept} of ${body.size} bytes kept` } : {};

function toEntry(
  request: RequestFacts,
  requestBody: Body | undefined,
  response: Response | undefined,
  content: Body | undefined,
  startedDateTime: string,
  timings: { wait: number; receive: number },
  sequence: number,
): HarEntry {
  const url = new URL(request.url);
  const requestMime = request.headers.get('content-type') ?? '';
  const responseMime = response?.headers.get('content-type') ?? '';
  return {
    startedDateTime,
    time: round(timings.wait + timings.receive),
    request: {
      method: request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(request.headers),
      queryString: nameValues(url.searchParams),
      ...(requestBody
        ? {
            postData: {
              mimeType: requestMime,
              text: requestBody.text,
              ...truncation(requestBody),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: requestBody?.size ?? 0,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: response ? 'HTTP/1.1' : '',
      cookies: [],
      headers: response ? nameValues(response.headers) : [],
      content: {
        size: content?.size ?? 0,
        mimeType: responseMime,
        ...(content ? { text: content.text } : {}),
        ...(content?.encoding ? { encoding: content.encoding } : {}),
        ...(content ? truncation(content) : {}),
      },
      redirectURL: response?.headers.get('location') ?? '',
      headersSize: -1,
      bodySize: content?.size ?? (response ? 0 : -1),
      ...(response ? {} : { comment: 'No answer: the connection failed.' }),
    },
    cache: {},
    timings: { send: 0, wait: round(timings.wait), receive: round(timings.receive) },
    _sequence: sequence,
  };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Entries streamed to a file, one JSON line each, then made a HAR by one last pass. */
interface FileSink {
  write(entry: HarEntry): void;
  finish(last: LastPass): Promise<void>;
  finishSync(last: LastPass): void;
  /** Closes and removes the `.partial`, leaving the file as it was. */
  discard(): void;
}

/** The last pass over a recording: each entry's line, given in send order, and the file's note. */
interface LastPass {
  line: (entry: HarEntry) => string;
  comment: string | undefined;
}

/**
 * A file the recorder cannot write safely: a symbolic link or something other than a regular file
 * at the name of its `.partial` or of the file it assembles the HAR in, or one replaced while it
 * was written.
 */
export class RecordFileError extends EmployeeRecognitionError {
  override name = 'RecordFileError';
}

// A file of our own: created here (never an existing one), not through a link, readable by its
// owner only, so a link planted at the name cannot redirect a recording's bytes elsewhere.
function createExclusive(fs: FileSystem, name: string): number {
  const { O_RDWR, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fs.constants;
  try {
    return fs.openSync(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (error) {
    const found = fs.lstatSync(name, { throwIfNoEntry: false });
    if (found && !found.isFile()) {
      throw new RecordFileError(
        `${name} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}: a recording is never written there.`,
      );
    }
    throw error;
  }
}

// The same directory entry as the open file: nothing replaced it since it was created.
const sameFile = (fs: FileSystem, name: string, fd: number) => {
  const [entry, open] = [fs.lstatSync(name, { throwIfNoEntry: false }), fs.fstatSync(fd)];
  return entry?.isFile() === true && entry.ino === open.ino && entry.dev === open.dev;
};

function createFileSink(
  path: string,
  say: (line: string) => void,
  fsGiven: FileSystem | undefined,
): FileSink {
  const partial = `${path}.partial`;
  const writing = `${path}.writing`;
  let fs: FileSystem | undefined;
  let fd: number | undefined;
  let at = 0;
  let finished = false;
  let failure: unknown;
  const waiting: [sequence: number, line: string][] = [];
  // Where each entry's line is in the `.partial`, by send sequence: the last pass reads them in
  // that order, one at a time.
  const lines: [sequence: number, position: number, length: number][] = [];

  const open = (module: FileSystem) => {
    fs = module;
    if (fs.lstatSync(partial, { throwIfNoEntry: false })?.isFile()) {
      // A killed run's entries: kept under a name of their own, which `traffic check` reads.
      const aside = `${path}.${new Date().toISOString().replace(/[:.]/g, '-')}.partial`;
      fs.renameSync(partial, aside);
      say(`${partial} was left by a run that did not finish: moved to ${aside}.`);
    }
    fd = createExclusive(fs, partial);
    flush();
  };
  const flush = () => {
    if (fd === undefined) return;
    for (const [sequence, line] of waiting) {
      const length = fs!.writeSync(fd, line, at);
      lines.push([sequence, at, length]);
      at += length;
    }
    waiting.length = 0;
  };
  // With `fs` given (the preload, the CLI), the file is opened now and a refusal thrown at once;
  // else once node:fs loads, a refusal failing `close()`, not the process meanwhile.
  const loaded = fsGiven
    ? Promise.resolve(open(fsGiven))
    : import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_FS).then(open);
  loaded.catch((error: unknown) => {
    failure = error;
    waiting.length = 0;
  });

  // The last pass: every entry, in the order it was sent, through `last.entry` (scrubbed with
  // all the recording learned, pseudonyms numbered in that order), into a file of our own that
  // then takes the HAR's name.
  const finishSync = (last: LastPass) => {
    if (finished || fs === undefined || fd === undefined) return;
    finished = true;
    flush();
    let out: number;
    try {
      out = createExclusive(fs, writing);
    } catch (error) {
      if (!fs.lstatSync(writing, { throwIfNoEntry: false })?.isFile()) throw error;
      // A killed run's half-assembled HAR: its entries are in its `.partial`.
      fs.rmSync(writing);
      out = createExclusive(fs, writing);
    }
    const { version, creator } = harOf([]).log;
    let position = 0;
    const put = (text: string) => (position += fs!.writeSync(out, text, position));
    put(`{"log":{"version":"${version}","creator":${JSON.stringify(creator)},"entries":[`);
    let separator = '\n';
    for (const [, start, length] of lines.sort(([a], [b]) => a - b)) {
      const bytes = new Uint8Array(length);
      fs.readSync(fd, bytes, 0, length, start);
      const entry = JSON.parse(new TextDecoder().decode(bytes)) as HarEntry;
      put(`${separator}${last.line(entry)}`);
      separator = ',\n';
    }
    const comment = last.comment === undefined ? '' : `,"comment":${JSON.stringify(last.comment)}`;
    put(`\n]${comment}}}\n`);
    fs.fsyncSync(out);
    try {
      if (!sameFile(fs, writing, out)) {
        throw new RecordFileError(`${writing} was replaced while written: ${partial} is kept.`);
      }
      fs.renameSync(writing, path);
    } finally {
      fs.closeSync(out);
    }
    if (sameFile(fs, partial, fd)) fs.rmSync(partial);
    fs.closeSync(fd);
  };

  return {
    write(entry) {
      if (failure !== undefined) throw failure;
      if (finished) return;
      waiting.push([entry._sequence ?? 0, `${JSON.stringify(entry)}\n`]);
      flush();
    },
    async finish(last) {
      await loaded;
      finishSync(last);
    },
    finishSync,
    discard() {
      if (finished || fs === undefined || fd === undefined) return;
      finished = true;
      if (sameFile(fs, partial, fd)) fs.rmSync(partial);
      fs.closeSync(fd);
    },
  };
}
