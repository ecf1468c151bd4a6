// The console's built styles and scripts (dist/service/client/_astro), which the Node adapter in
// middleware mode does not serve. Found with the hosting's safe lookup (no link followed, nothing
// outside the folder) and sent with the console's security headers, brotli- or gzip-compressed
// from copies made at build time when the browser accepts it.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { checkRequestPath, chooseEncoding, SiteFiles } from '../hosting/site-files.ts';
import { CONSOLE_HEADERS } from './security.ts';

export function createConsoleAssets(clientDir: string) {
  const files = new SiteFiles();
  let root: string | undefined;
  return {
    /** True when the request names an asset path (`/_astro/…`): it has then been answered. */
    async serve(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
      if (!req.url?.startsWith('/_astro/')) return false;
      root ??= realpathSync(path.resolve(clientDir));
      const checked = checkRequestPath(req.url);
      const file = checked.ok && !checked.rel.endsWith('/') ? await files.find(root, checked.rel) : null;
      if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { ...CONSOLE_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        res.end('Not found\n');
        return true;
      }
      // The copy compressed at build time (integration.ts) when the browser takes its encoding.
      const encoding = file.encoded && chooseEncoding(req.headers['accept-encoding'], file.encoded);
      const sent = encoding ? file.encoded![encoding]! : file;
      // file.headers already say nosniff.
      const extra = Object.entries(CONSOLE_HEADERS).filter(([name]) => name !== 'x-content-type-options');
      res.writeHead(200, [...sent.headers, ...extra.flat()]);
      res.end(req.method === 'HEAD' ? undefined : (sent.body ?? (await readFile(sent.abs))));
      return true;
    },
  };
}
