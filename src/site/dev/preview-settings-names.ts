// The two names the preview's stale-page check shares between the server (dev-reload.ts), the page
// (layouts/DocsLayout.astro) and the page's script (client/preview-settings.ts). No imports: the
// browser loads it too.

/** The meta element that carries the settings version a page was rendered with (dev only). */
export const PREVIEW_SETTINGS_META = 'folio-preview-settings';

/** The event an open page sends when it connects, with the settings version it was rendered with. */
export const PAGE_SETTINGS_EVENT = 'folio:page-settings';
