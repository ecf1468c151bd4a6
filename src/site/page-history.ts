// What a page shows from its project's repository (the deployment hands it over, settings.ts):
// the "Edit this page" address and the date of the page's last commit.
import fs from 'node:fs';
import { siteSettings } from './settings.ts';

export interface PageHistoryView {
  editHref?: string;
  /** ISO date of the page's last commit. */
  updated?: string;
}

let dates: { file: string; byPath: Record<string, string> } | undefined;

/** The build's last-updated dates, read once per build. */
function lastUpdated(file: string | undefined): Record<string, string> {
  if (!file) return {};
  if (dates?.file !== file) {
    let byPath: Record<string, string> = {};
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (parsed && typeof parsed === 'object') byPath = parsed as Record<string, string>;
    } catch {
      // no dates: pages show none
    }
    dates = { file, byPath };
  }
  return dates.byPath;
}

/** `sourceFile`: the page's file relative to the content root, such as `content/guides/install.mdx`. */
export function pageHistory(sourceFile: string | undefined): PageHistoryView {
  if (!sourceFile) return {};
  const { editUrl, lastUpdatedFile } = siteSettings();
  const updated = lastUpdated(lastUpdatedFile)[sourceFile];
  return {
    editHref: editUrl ? editUrl + sourceFile.split('/').map(encodeURIComponent).join('/') : undefined,
    updated: typeof updated === 'string' && !Number.isNaN(Date.parse(updated)) ? updated : undefined,
  };
}

/** A date as readers see it under a page: "November 23, 2026" (UTC, so every build writes the same). */
export function formatUpdated(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
