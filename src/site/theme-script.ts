// The script that sets the colour theme before the page is painted: inline in every page's <head>
// (an external file would be one more request that blocks the first paint), and allowed by the
// site's Content-Security-Policy through its hash alone, so no other inline script runs
// (src/hosting/content-security-policy.ts; docs/decisions.md#docs-site-theme).
//
// It applies the reader's saved choice, else docs.json `appearance.default`, else the system's
// mode; with `appearance.strict` the reader has no choice. Plain ES5, no comments inside: the text
// is hashed exactly as sent.
import { createHash } from 'node:crypto';

export const THEME_SCRIPT =
  "(function(){var r=document.documentElement,t=null;try{t=localStorage.getItem('folio-theme')}catch(e){}" +
  "if(r.hasAttribute('data-appearance-strict')||(t!=='light'&&t!=='dark'))t=null;" +
  "var p=r.getAttribute('data-appearance');if(!t&&(p==='light'||p==='dark'))t=p;" +
  "if(!t)t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';r.setAttribute('data-theme',t)})();";

/** The CSP source that allows THEME_SCRIPT and nothing else. */
export const THEME_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`;
