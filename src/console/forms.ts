// Reading console forms with the API's own zod schemas and messages, and turning domain errors
// into the API's status and message (src/api/http.ts), so both say the same thing.
import type { z } from 'zod';
import { toApiError } from '../api/http.ts';
import { formatIssues, issuePath } from '../service/errors.ts';
import { formatSeconds } from './format.ts';

/** A text field of a form: the value as typed, or undefined when absent. */
export function text(form: FormData | undefined, name: string): string | undefined {
  const value = form?.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** A field left empty means "not set" (the API's omitted field). */
export function optional(form: FormData | undefined, name: string): string | undefined {
  const value = text(form, name)?.trim();
  return value ? value : undefined;
}

export type Checked<T> = { ok: true; data: T } | { ok: false; field: string; message: string };

/** Parses like the API does (src/api/http.ts parseBody); a failure names its field for an inline error. */
export function check<S extends z.ZodType>(schema: S, body: unknown): Checked<z.infer<S>> {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  return { ok: false, field: issue ? issuePath(issue).split('.')[0] : '', message: formatIssues(result.error, 'the form is not complete') };
}

/** The API's status and message for an error of the service layer (500 without details otherwise). */
export function problem(err: unknown): { status: number; code: string; message: string } {
  const e = toApiError(err);
  return { status: e.status, code: e.code, message: e.message };
}

/**
 * What a lookup finds, or undefined where the API would answer it with 404 (no such thing, or
 * another organization's): the page then shows its "not found". `notFound` lists the statuses that
 * mean that for this lookup (a malformed page path is a 400 too); any other error is thrown on.
 */
export async function found<T>(lookup: () => Promise<T>, notFound: readonly number[] = [404]): Promise<T | undefined> {
  try {
    return await lookup();
  } catch (err) {
    if (!notFound.includes(problem(err).status)) throw err;
    return undefined;
  }
}

/** Formats an ISO time for people, in UTC (the server does not know the reader's zone). */
export function when(iso: string | null | undefined): string {
  if (!iso) return 'never';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** How long a build took, for people ("42 s", "3 min 5 s"); a dash until it has both ends. */
export function duration(startedAt: string | null | undefined, finishedAt: string | null | undefined): string {
  if (!startedAt || !finishedAt) return '—';
  return formatSeconds((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000);
}

/** A textarea's text with the line breaks files use: browsers send every line break as CRLF. */
export function multiline(form: FormData | undefined, name: string): string | undefined {
  return text(form, name)?.replace(/\r\n?/g, '\n');
}
