// Byte ranges of a site's files (RFC 9110 section 14, https://www.rfc-editor.org/rfc/rfc9110#section-14):
// one `bytes` range of a file sent as it is, checked against If-Range. Why multiple ranges and
// compressed answers get the whole file instead: docs/decisions.md#byte-ranges-and-css-per-page.
import { Transform } from 'node:stream';

/** What a request's Range asks of a representation of `size` bytes. */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const FULL: RangeAnswer = { kind: 'full' };
/** One range: `first-last`, `first-` or `-suffix` (RFC 9110 section 14.1.1). */
const ONE_RANGE = /^bytes=(\d*)-(\d*)$/i;

/**
 * The range to send: `full` when there is no Range, it is not one valid `bytes` range (RFC 9110
 * lets a server ignore any Range; a list is ignored rather than answered as multipart) or If-Range
 * names another version (an ETag compared strongly; a date, since site files carry no
 * Last-Modified); `unsatisfiable` (416) when the range starts at or after the end or asks for an
 * empty suffix.
 */
export function requestedRange(range: string | undefined, ifRange: string | undefined, etag: string, size: number): RangeAnswer {
  if (range === undefined) return FULL;
  if (ifRange !== undefined && ifRange.trim() !== etag) return FULL;
  const match = ONE_RANGE.exec(range.trim());
  if (!match) return FULL;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return FULL;
  // Digits only, but possibly more than a Number holds exactly: beyond the size they mean "to the end".
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return size === 0 ? { kind: 'unsatisfiable' } : { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return FULL; // invalid syntax (RFC 9110 section 14.1.1): ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** Bytes `start`…`end` (inclusive) of a stream that starts at byte 0 (a file in object storage, fetched whole). */
export function sliceOf(source: NodeJS.ReadableStream, start: number, end: number): Transform {
  let offset = 0;
  const slice = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (offset > end) return done();
      const from = Math.max(0, start - offset);
      const to = Math.min(chunk.length, end + 1 - offset);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      // Past the end: the rest is not read.
      if (offset > end) {
        this.push(null);
        (source as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      }
      done();
    },
  });
  return source.pipe(slice);
}
