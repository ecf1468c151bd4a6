// The origins a site's playground sends requests to: the servers of its operation pages. The
// hosting adds exactly these to the site's `connect-src` (src/hosting/content-security-policy.ts),
// reading them from a file the build writes (CONNECT_ORIGINS_FILE).
import type { OperationPageModel } from './model.ts';

/** Where a build lists its playground's origins, one per line, inside the site's output. */
export const CONNECT_ORIGINS_FILE = '_folio/connect-origins.txt';

/** `https://api.example.com` or `http://127.0.0.1:4321`; nothing else is ever allowed. */
export const ORIGIN = /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The distinct origins of the interactive playgrounds' servers, sorted. */
export function connectOrigins(pages: OperationPageModel[]): string[] {
  const origins = new Set<string>();
  for (const page of pages) {
    if (page.playground?.display !== 'interactive') continue;
    for (const server of page.playground.servers) {
      const origin = originOf(server);
      if (origin) origins.add(origin);
    }
  }
  return [...origins].sort();
}

function originOf(url: string): string | undefined {
  try {
    const { origin, protocol } = new URL(url);
    return (protocol === 'https:' || protocol === 'http:') && ORIGIN.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}
