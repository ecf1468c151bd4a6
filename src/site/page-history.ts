// What a page shows from its project's repository (the deployment hands it to the build, settings.ts):
// the "Edit this page" address and the date of the page's last commit.
import { siteBuild } from './build-settings.ts';

export interface PageHistoryView {
  editHref?: string;
  /** ISO date of the page's last commit. */
  updated?: string;
}

/** `sourceFile`: the page's file relative to the content root, such as `content/guides/install.mdx`. */
export function pageHistory(sourceFile: string | undefined): PageHistoryView {
  if (!sourceFile) return {};
  const { editUrl, lastUpdated } = siteBuild;
  return {
    editHref: editUrl ? editUrl + sourceFile.split('/').map(encodeURIComponent).join('/') : undefined,
    updated: lastUpdated[sourceFile],
  };
}

/** A date as readers see it under a page: "November 23, 2026" (UTC, so every build writes the same). */
export function formatUpdated(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
