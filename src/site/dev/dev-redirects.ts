// docs.json `redirects` in `npm run dev` (astro dev): answered before Astro renders anything, by the
// hosting layer's own matcher (src/hosting/redirects.ts), so a preview redirects exactly as the live
// site does: same rules, same order, same 307/308, same query handling. Folio's own paths and
// Vite's (`/@vite/…`, `/@fs/…`, `/__…`, `/node_modules/…`) are never redirected, so a catch-all rule
// cannot break the dev server. `errors.404.redirect` is left to the live site: in dev, a missing
// page shows the 404 page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redirectable, RedirectTable } from '../../hosting/redirects.ts';
import type { RedirectRule } from '../config/config-values.ts';

const DEV_SERVER_PATHS = /^\/(?:@|__|node_modules(?:\/|$))/;

/** `rules()`: docs.json's redirects as they are now (a docs.json change does not restart the preview). */
export function devRedirects(rules: () => RedirectRule[]) {
  let compiled: { rules: RedirectRule[]; table: RedirectTable } | undefined;
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const current = rules();
    if (compiled?.rules !== current) compiled = { rules: current, table: new RedirectTable(current) };
    const { table } = compiled;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !table.size) return next();
    const url = req.url ?? '/';
    const at = url.search(/[?#]/);
    const pathname = at < 0 ? url : url.slice(0, at);
    if (!redirectable(pathname) || DEV_SERVER_PATHS.test(pathname)) return next();
    const search = at < 0 || url[at] === '#' ? '' : url.slice(at).replace(/#.*$/, '');
    const answer = table.match(pathname, search);
    if (!answer) return next();
    const body = `Redirecting to ${answer.location}\n`;
    res.writeHead(answer.status, { location: answer.location, 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}
