// The Content-Security-Policy of every answer on a project's site: a second line of defence, so
// that markup slipping past the content check (an `onerror` attribute, a `<script>`) cannot run
// script on a reader's page. Folio's own pages have one inline script, the theme script of every
// page's <head>, allowed by its hash (src/site/theme-script.ts); the rest are files under /_astro/
// (src/site/astro-config.ts keeps them out of the HTML).
// Why each directive: docs/decisions.md#untrusted-content.
import { EMBED_ORIGINS } from '../site/embeds.ts';
import { ORIGIN } from '../site/openapi/origins.ts';
import { THEME_SCRIPT_HASH } from '../site/theme-script.ts';

export interface SitePolicyOptions {
  /**
   * The project may ship its own components (`allow_code`): its pages then run inline scripts
   * (island hydration) and eval, still only from its own origin.
   */
  allowCode: boolean;
  /**
   * Origins the site's API playground sends requests to (the servers its OpenAPI files list,
   * src/site/openapi/origins.ts): added to `connect-src`, each an exact `scheme://host[:port]`.
   */
  connectOrigins?: readonly string[];
}

function build({ allowCode, connectOrigins = [] }: SitePolicyOptions): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    // 'wasm-unsafe-eval': Pagefind's search runs as WebAssembly; it allows compiling WASM, not eval.
    // With 'unsafe-inline' (code allowed) a hash would switch it off, so the hash comes only without.
    ['script-src', "'self'", "'wasm-unsafe-eval'", ...(allowCode ? ["'unsafe-inline'", "'unsafe-eval'"] : [THEME_SCRIPT_HASH])],
    // Inline styles stay allowed: docs.json colours are a <style> element and highlighted code
    // carries style attributes. Styles cannot run script.
    ['style-src', "'self'", "'unsafe-inline'"],
    // Pages show images from anywhere (badges, screenshots on a CDN, a logo URL in docs.json).
    ['img-src', '*', 'data:', 'blob:'],
    ['media-src', "'self'", 'https:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...connectOrigins.filter((origin) => ORIGIN.test(origin))],
    ['frame-src', ...EMBED_ORIGINS],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    // Docs carry no actions worth clickjacking, but nothing of Folio frames a site either.
    ['frame-ancestors', "'self'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

const POLICIES = { code: build({ allowCode: true }), noCode: build({ allowCode: false }) };

/** The Content-Security-Policy header value for a project's site. */
export function siteContentSecurityPolicy(options: SitePolicyOptions): string {
  if (options.connectOrigins?.length) return build(options);
  return options.allowCode ? POLICIES.code : POLICIES.noCode;
}
