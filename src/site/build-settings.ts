// The build in progress, as the code inside the Astro build sees it (routes, layouts, components,
// content config): the settings and docs.json the site integration validated once for this build
// (settings.ts), served as the virtual module `virtual:folio/site-build`. Import from here, never
// from process.env or by reading docs.json again.
import { settingsVersion, site } from 'virtual:folio/site-build';

/** The build in progress: content root, site URL, allow-code, docs.json, snippets dir. */
export const siteBuild = site;

/** How many times the preview has read the settings again since it started (0 in a build). */
export const previewSettingsVersion = settingsVersion;

/** The validated docs.json of the content root being built. */
export const docsConfig = site.docsConfig;

/** `href` (a site path such as `/guides/install/`) as an absolute URL when the site URL is known. */
export const absoluteUrl = (href: string): string => `${site.siteUrl ?? ''}${href}`;
