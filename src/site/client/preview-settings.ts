// In the preview only (`folio dev`, `npm run dev`; a build drops this, as import.meta.hot is
// undefined there): tells the preview which settings the page was rendered with, and the preview
// reloads it if docs.json changed meanwhile (dev/dev-reload.ts, reloadStalePages).
if (import.meta.hot) {
  const rendered = document.querySelector<HTMLMetaElement>('meta[name="folio-preview-settings"]')?.content;
  // The event's name is dev-reload.ts's PAGE_SETTINGS_EVENT (that module is the server's, not the page's).
  if (rendered !== undefined) import.meta.hot.send('folio:page-settings', { settingsVersion: Number(rendered) });
}
