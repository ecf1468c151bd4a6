// Warnings grouped by kind (docs/decisions.md, "What Mintlify deploys, Folio deploys"): a real
// repository's build may warn thousands of times about a few things (a component Folio does not
// have, on every page that uses it). The build log and `check:site` end with one block per kind,
// its count and its first few places; the deployment log file keeps every warning line above it.
// Plain functions, no Astro imports: the build, check:site and bench:real all use them.

/** Places shown under each kind; the others are counted. */
export const PLACES_PER_KIND = 3;

export interface WarningKind {
  /** The message with what varies between places left out (names, paths, numbers). */
  kind: string;
  count: number;
  /** The first few warnings of this kind, whole (`file:line:col: message`). */
  first: string[];
}

// The prefixes a build log gives a warning line (build.ts emits the first, Astro writes the second).
const WARNING_PREFIX = /^(?:\[folio\] warning: |\[WARN\] )/;
const LOCATION = /^[^\s:]+:\d+:\d+: /;
const MAX_READ = 400;

/**
 * The kind of a warning message: quoted values, component names, parentheses, numbers and paths
 * are what differs between two warnings of one kind. Only the message's start is read (a message
 * may quote a tenant's text at any length), so the work per warning is bounded.
 */
export function warningKind(message: string): string {
  const kind = message
    .slice(0, MAX_READ)
    .replace(WARNING_PREFIX, '')
    .replace(LOCATION, '')
    .replace(/"[^"\n]*"/g, '"…"')
    .replace(/<[A-Za-z][\w.:-]*>/g, '<…>')
    .replace(/ \([^()\n]*\)/g, '')
    .replace(/\b[\w.-]+(?:\/[\w.-]+)+\b/g, '…')
    .replace(/(?<=\s)\/[^\s,;:]*/g, '…')
    .replace(/\b[\w-]+\.(?:mdx?|json|ya?ml|css|js|html?)\b/g, '…')
    .replace(/\d+/g, 'N');
  return kind.length > 120 ? `${kind.slice(0, 119)}…` : kind;
}

/** Groups warnings (`file:line:col: message`, with or without a log prefix) by kind, the most frequent first. */
export function groupWarnings(warnings: readonly string[]): WarningKind[] {
  const byKind = new Map<string, WarningKind>();
  for (const line of warnings) {
    const text = line.replace(WARNING_PREFIX, '');
    const kind = warningKind(text);
    let group = byKind.get(kind);
    if (!group) byKind.set(kind, (group = { kind, count: 0, first: [] }));
    group.count += 1;
    if (group.first.length < PLACES_PER_KIND) group.first.push(text);
  }
  return [...byKind.values()].sort((a, b) => b.count - a.count);
}

/**
 * The lines of the summary: a heading with the count, then per kind its count and first places.
 * `where` says where the full list is. Empty when there is no warning.
 */
export function warningSummary(warnings: readonly string[], where: string): string[] {
  if (!warnings.length) return [];
  const groups = groupWarnings(warnings);
  const lines = [`warnings by kind: ${warnings.length} warning${warnings.length === 1 ? '' : 's'} of ${groups.length} kind${groups.length === 1 ? '' : 's'} (${where})`];
  for (const group of groups) {
    lines.push(`  ${group.count} × ${group.kind}`);
    for (const first of group.first) lines.push(`      ${first}`);
    if (group.count > group.first.length) lines.push(`      … and ${group.count - group.first.length} more`);
  }
  return lines;
}
