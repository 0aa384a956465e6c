/**
 * parseHar reads a file's text: a HAR document (a byte order mark and blank lines around it
 * allowed), or a recorder's `.partial`, one entry a line; and tells apart, in its kind and its
 * words, an empty file, one cut short and one that is not JSON at all.
 */
import { HarError, parseHar } from '@employee-recognition/sdk/testing';
import { describe, expect, it } from 'vitest';

const entry = (url: string, sequence?: number) => ({
  startedDateTime: '2026-11-28T09:00:00.000Z',
  time: 1,
  request: { method: 'GET', url: `https://api.example${url}`, headers: [] },
  response: { status: 200, headers: [], content: { size: 0, mimeType: 'text/plain' } },
  ...(sequence === undefined ? {} : { _sequence: sequence }),
});
const DOCUMENT = JSON.stringify({ log: { version: '1.2', entries: [entry('/v1/users')] } });

function thrown(text: string): HarError {
  try {
    parseHar(text, 'calls.har');
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    return error as HarError;
  }
  throw new Error('it did not throw');
}

describe('parseHar: a HAR document', () => {
  it('reads one after a byte order mark and between blank lines, with nothing to say', () => {
    const read = parseHar(`\uFEFF\n\n  ${DOCUMENT}\n\n`, 'calls.har');
    expect(read).toMatchObject({ partial: false, notes: [] });
    expect(read.har.log.entries).toHaveLength(1);
  });

  it('keeps a byte order mark inside the document, in a body', () => {
    const body = JSON.stringify({
      log: {
        entries: [
          { ...entry('/v1/users'), response: { status: 200, content: { text: '\uFEFF{}' } } },
        ],
      },
    });
    expect(parseHar(body).har.log.entries[0]!.response.content.text).toBe('\uFEFF{}');
  });

  it('JSON that is no object is a bad document, not a crash', () => {
    expect(thrown('null').message).toBe(
      'calls.har is not a HAR 1.2 document: the document is null, not an object.',
    );
    expect(thrown('7').message).toBe(
      'calls.har is not a HAR 1.2 document: the document is number, not an object.',
    );
    const string = thrown('"calls"');
    expect(string.kind).toBe('string');
    expect(string.problems).toEqual([]);
  });

  it('names "The text" when no name is given', () => {
    expect(() => parseHar('{"log":{}}')).toThrow(
      'The text is not a HAR 1.2 document: log.entries is missing.',
    );
  });
});

describe('parseHar: text that is no HAR', () => {
  it('an empty or blank file is empty', () => {
    for (const text of ['', ' \n\t', '\uFEFF']) {
      const error = thrown(text);
      expect(error.kind).toBe('not-json');
      expect(error.message).toBe('calls.har is empty, not a HAR file.');
      expect(error.problems).toEqual([]);
    }
  });

  it('a document cut inside a string, after a value, or after a key is cut short, its length said', () => {
    for (const text of [
      DOCUMENT.slice(0, 30),
      '{"log":{"entries":[',
      '{"log"',
      '{"log":{"version":1',
    ]) {
      const error = thrown(text);
      expect(error.kind).toBe('truncated');
      expect(error.message).toBe(
        `calls.har ends early: the HAR is cut short after ${text.length} characters (was the process writing it stopped?). A recorder's entries are in its .partial until the recording is finished.`,
      );
    }
  });

  it('text that is not JSON says so, and how it starts unless it starts as JSON does', () => {
    const html = thrown('<html><body>Not found</body></html>');
    expect(html.kind).toBe('not-json');
    expect(html.message).toMatch(
      /^calls\.har is not JSON, so not a HAR file: .+ \(it starts "<html><body>Not foun"\)\.$/,
    );
    const broken = thrown('{"log": nope}');
    expect(broken.kind).toBe('not-json');
    expect(broken.message).toMatch(
      /^calls\.har is not JSON, so not a HAR file: [^(]+ is not valid JSON\.$/,
    );
  });
});

describe('parseHar: a recorder’s .partial', () => {
  const NOTE =
    "calls.har is a recording's .partial, left by a process that did not finish: its entries are read as they were streamed, without the last pass over the whole session (a name first seen in a later entry may be in clear in an earlier one).";

  it('reads each line an entry, in send order, blank lines (spaces too) left out', () => {
    const text = [entry('/v1/teams', 2), entry('/v1/users', 1)]
      .map((each) => JSON.stringify(each))
      .join('\n \t\n');
    const read = parseHar(`${text}\n`, 'calls.har');
    expect(read.partial).toBe(true);
    expect(read.notes).toEqual([NOTE]);
    expect(read.har.log.entries.map((each) => each.request.url)).toEqual([
      'https://api.example/v1/users',
      'https://api.example/v1/teams',
    ]);
    expect(read.har.log).toMatchObject({
      version: '1.2',
      creator: { name: 'partial recording', version: '' },
    });
  });

  it('reads a .partial of a single entry, which is one JSON object', () => {
    const read = parseHar(JSON.stringify(entry('/v1/users', 1)), 'calls.har');
    expect(read).toMatchObject({ partial: true, notes: [NOTE] });
    expect(read.har.log.entries).toHaveLength(1);
  });

  it('a JSON object with only a request, or only a response, is no entry but a bad document', () => {
    for (const only of [{ request: {} }, { response: {} }]) {
      expect(thrown(JSON.stringify(only)).message).toBe(
        'calls.har is not a HAR 1.2 document: log is missing.',
      );
    }
  });

  it('a line before the last that is not JSON is an error naming it', () => {
    const text = [JSON.stringify(entry('/v1/users', 1)), '{"startedDateTime": nope', '{}'].join(
      '\n',
    );
    const error = thrown(text);
    expect(error.kind).toBe('not-json');
    expect(error.message).toMatch(
      /^calls\.har is a recording's \.partial whose line 2 is not JSON: .+\.$/,
    );
  });

  it('a .partial whose entries are not entries is a bad document, named', () => {
    const text = [JSON.stringify(entry('/v1/users', 1)), '{"startedDateTime":"x"}'].join('\n');
    expect(thrown(text).message).toBe(
      'calls.har is not a HAR 1.2 document: entry 1, request is missing; entry 1, response is missing.',
    );
  });

  it('a .partial whose one line is cut short holds no entry, saying so', () => {
    const read = parseHar('{"startedDateTime":"2026-11-28T09:00:00.000Z"', 'calls.har');
    expect(read.har.log.entries).toEqual([]);
    expect(read.notes).toEqual([
      NOTE,
      'Its last line is cut short (the process stopped while writing it) and is left out.',
    ]);
  });
});
