// In the preview only (`folio dev`, `npm run dev`; a build drops this, as import.meta.hot is
// undefined there): tells the preview which settings the page was rendered with, and the preview
// reloads it if docs.json changed meanwhile (dev/dev-reload.ts, reloadStalePages).
import { PAGE_SETTINGS_EVENT, PREVIEW_SETTINGS_META } from '../dev/preview-settings-names.ts';

if (import.meta.hot) {
  const rendered = document.querySelector<HTMLMetaElement>(`meta[name="${PREVIEW_SETTINGS_META}"]`)?.content;
  if (rendered !== undefined) import.meta.hot.send(PAGE_SETTINGS_EVENT, { settingsVersion: Number(rendered) });
}
