// Validation rules for projects (docs/decisions.md#projects), as zod schemas. The API parses request bodies with
// these once; the projects service receives typed, normalised values.
import { z } from 'zod';

export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'api', 'www', 'app', 'console', 'admin', 'static', 'assets', 'status', 'docs',
]);

const typeError = (field: string, type: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? `${field} is required` : `${field} must be ${type}`;

const text = (field: string) => z.string({ error: typeError(field, 'a string') });

// Cc is the Unicode "control" category (C0, DEL, C1).
const CONTROL = /\p{Cc}/u;

export const projectName = text('name')
  .refine((s) => {
    const length = [...s].length;
    return length >= 1 && length <= 80;
  }, 'name must be 1 to 80 characters')
  .refine((s) => s.trim() !== '', 'name must not be blank')
  .refine((s) => !CONTROL.test(s), 'name must not contain control characters');

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const projectSlug = text('slug')
  .regex(
    SLUG_PATTERN,
    'slug must be 1 to 63 lower-case letters, digits or hyphens, starting and ending with a letter or digit',
  )
  .refine((s) => !s.startsWith('xn--'), 'slug must not start with "xn--" (reserved for internationalised domain names)')
  // `--` separates a preview's branch label from the slug in preview hosts ({label}--{slug}.{domain}).
  .refine((s) => !s.includes('--'), 'slug must not contain "--" (it separates the branch from the slug in preview hosts): use single hyphens');

const REPO_PATTERN = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})$/;
const REPO_FORM =
  'source_repo must have the form "owner/name", for example "acme/docs" (owner: 1–39 letters, digits or hyphens; ' +
  'name: 1–100 letters, digits, ".", "_" or "-", not "." or "..", without ".git"; not a URL)';

export const sourceRepo = text('source_repo').refine((s) => {
  const match = REPO_PATTERN.exec(s);
  if (!match) return false;
  const name = match[2];
  return name !== '.' && name !== '..' && !name.toLowerCase().endsWith('.git');
}, REPO_FORM);

/** git check-ref-format rules for a branch name, plus: not starting with "-". Returns the broken rule. */
export function branchNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > 255) return 'must be 1 to 255 characters';
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name === '@') return 'must not be "@"';
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'must not contain ".."';
  if (name.includes('@{')) return 'must not contain "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'must not start or end with "/" or contain "//"';
  if (name.endsWith('.')) return 'must not end with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'no path component may start with "."';
    if (part.endsWith('.lock')) return 'no path component may end with ".lock"';
  }
  return undefined;
}

export const sourceBranch = text('source_branch').superRefine((s, ctx) => {
  const problem = branchNameProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: `source_branch is not a valid git branch name: it ${problem}` });
});

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A lower-case host name of one or more labels (`localhost`, `docs.example.com`). */
export const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Why a lower-cased hostname is not acceptable as a custom domain, if it is not. */
export function hostnameProblem(host: string): string | undefined {
  if (/[:/?#@]/.test(host)) return 'must be a bare hostname such as docs.example.com, without scheme, port or path';
  if (host.length > 253) return 'must be at most 253 characters';
  const labels = host.split('.');
  if (labels.length < 2) return 'must have at least two labels, such as docs.example.com';
  if (!labels.every((l) => LABEL.test(l))) {
    return 'must consist of labels of 1 to 63 letters, digits or hyphens (not starting or ending with a hyphen) separated by dots';
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return 'must be a hostname, not an IP address';
  return undefined;
}

export const customDomain = text('custom_domain')
  .transform((s) => s.toLowerCase())
  .superRefine((s, ctx) => {
    const problem = hostnameProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: `custom_domain ${problem}` });
  });

export const allowCode = z.boolean({ error: typeError('allow_code', 'true or false') });
/** Continuous deployment: previews of other branches, and which branches get one (docs/decisions.md#continuous-deployment). */
export const previews = z.boolean({ error: typeError('previews', 'true or false') });
export const previewBranches = text('preview_branches').refine(
  (s) => /^[A-Za-z0-9._/*-]{1,255}$/.test(s),
  'preview_branches must be a branch name pattern of letters, digits, ".", "_", "/", "-" and "*" (any characters), at most 255 long, such as feature/*',
);
/** The host a caller asks about (`?domain=` of the TLS check): any host name, lower-cased, without a trailing dot. */
export const hostQuery = z
  .string({ error: 'domain query parameter is required: ?domain=docs.example.com' })
  .transform((s) => s.toLowerCase().replace(/\.$/, ''))
  .pipe(z.string().regex(HOSTNAME, 'domain must be a host name such as docs.example.com, without scheme, port or path'));

export const createProjectBody = z.strictObject({
  name: projectName,
  slug: projectSlug,
  source_repo: sourceRepo.optional(),
  source_branch: sourceBranch.optional(),
  custom_domain: customDomain.optional(),
  allow_code: allowCode.optional(),
  previews: previews.optional(),
  preview_branches: previewBranches.optional(),
});

const immutable = (field: string) =>
  z.never({ error: `${field} cannot be changed` }).optional();

export const updateProjectBody = z.strictObject({
  name: projectName.optional(),
  source_repo: sourceRepo.nullable().optional(),
  source_branch: sourceBranch.nullable().optional(),
  custom_domain: customDomain.nullable().optional(),
  allow_code: allowCode.optional(),
  previews: previews.optional(),
  preview_branches: previewBranches.nullable().optional(),
  id: immutable('id'),
  slug: immutable('slug'),
  status: immutable('status'),
});

export type CreateProjectInput = z.infer<typeof createProjectBody>;
export type UpdateProjectInput = Omit<z.infer<typeof updateProjectBody>, 'id' | 'slug' | 'status'>;

