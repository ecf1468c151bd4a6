// OpenAPI attached the Mintlify way (issue 11, docs/decisions.md#openapi-reference-pages): one
// content root in Mintlify's layout (pages beside docs.json), built once, with docs.json
// `api.openapi` ({source, directory}), `openapi` on a navigation group and on a tab, `openapi:`
// frontmatter in all three forms (one finding its file by itself), a 3.1 document with webhooks and
// every schema form, and a 3.0 document written with 3.1 forms.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { article, buildFixture, sidebarOf, text, type BuiltSite } from './helpers.ts';
import { BILLING_31_YAML, LENIENT_30_YAML, SHOP_31 } from '../openapi/mintlify-fixtures.ts';

let site: BuiltSite;

beforeAll(async () => {
  site = await buildFixture({
    'index.mdx': '# Home\n\nWelcome.\n',
    'guide.mdx': '# Ordering guide\n\nHow ordering works.\n',
    'order.mdx': '---\nopenapi: "GET /orders/{orderId}"\n---\n\n## Notes\n\nOrders are kept for seven years.\n',
    // Generated pages quote the path inside the value; the quotes are not part of it.
    'order-quoted.mdx': `---\nopenapi: "GET '/orders/{orderId}'"\n---\n`,
    'restock.mdx': '---\ntitle: Restock\nopenapi: specs/warehouse.yaml POST /items\n---\n',
    'shipped.mdx': '---\nopenapi: webhook order.shipped\n---\n',
    'invoices.mdx': '---\nopenapi: GET /invoices\nplayground: simple\n---\n',
    'specs/shop.json': JSON.stringify(SHOP_31, null, 2),
    'specs/warehouse.yaml': LENIENT_30_YAML,
    // Named nowhere: found by itself for the frontmatter that names no file.
    'extra/billing.yaml': BILLING_31_YAML,
    // Also has GET /invoices and comes first in path order, but .mintignore leaves it out.
    '.mintignore': 'drafts/\n',
    'drafts/billing-old.yaml': BILLING_31_YAML.replace('summary: List invoices', 'summary: Old invoices'),
    'docs.json': JSON.stringify({
      name: 'Shop',
      api: {
        openapi: { source: 'specs/shop.json', directory: 'reference' },
        examples: { languages: ['curl', 'python', 'javascript', 'go'], defaults: 'all', prefill: true },
      },
      navigation: {
        tabs: [
          {
            tab: 'Guides',
            groups: [
              { group: 'Start', pages: ['index', 'guide', 'order', 'restock', 'shipped', 'invoices'] },
              { group: 'Ordering', openapi: { source: 'specs/shop.json', directory: 'ordering' }, pages: ['POST /orders', 'WEBHOOK order.shipped'] },
            ],
          },
          // A tab with nothing but a spec: all its operations, in the tab's own sidebar.
          { tab: 'Warehouse API', openapi: 'specs/warehouse.yaml' },
        ],
      },
    }),
  });
}, 240_000);

// Astro's scoped-style attributes are left out, so assertions read like the markup written.
const page = (p: string) => site.read(`${p}/index.html`).replace(/ data-astro-cid-[a-z0-9]+/g, '');
const h1 = (html: string) => text(/<h1 class="openapi-title"[^>]*>[\s\S]*?<\/h1>/.exec(article(html))?.[0] ?? '').trim();

describe('generated pages at Mintlify addresses', () => {
  it('build with one warning, for the 3.0 document written with 3.1 forms, naming its line', () => {
    expect(site.result.error).toBeUndefined();
    expect(site.result.warnings).toHaveLength(1);
    expect(site.result.warnings[0]).toMatch(/specs\/warehouse\.yaml says OpenAPI 3\.0\.3 but uses OpenAPI 3\.1 forms \(a "type" list at specs\/warehouse\.yaml:20:21 #\/paths\/~1items\/get\/responses\/200\/content\/application~1json\/schema\/properties\/name\/type\): read as 3\.1/);
  });

  it('put docs.json operations at {directory}/{tag}/{summary}, x-mint href where it says, webhooks included', () => {
    for (const p of ['reference/orders/get-an-order', 'reference/orders/create-an-order', 'reference/orders/order-shipped', 'reference/get-health', 'reference/stocklow', 'catalog/browse']) {
      expect(site.exists(`${p}/index.html`), p).toBe(true);
    }
    expect(h1(page('reference/orders/get-an-order'))).toBe('GET Get an order');
    expect(h1(page('reference/orders/order-shipped'))).toBe('WEBHOOK Order shipped');
    expect(text(article(page('reference/orders/order-shipped')))).toContain('Webhook order.shipped: your server receives this POST request.');
    // Summary punctuation is dropped as Mintlify drops it; x-hidden keeps the page out of the sidebar only.
    expect(site.exists('reference/orders/cancel-an-order-now/index.html')).toBe(true);
    // x-excluded: no page at all.
    expect(fs.readdirSync(path.join(site.out, 'reference/orders')).sort()).toEqual(['cancel-an-order-now', 'create-an-order', 'create-an-order.md', 'get-an-order', 'get-an-order.md', 'order-shipped', 'order-shipped.md']);
  });

  it('honour x-mint: title, content before the reference, and no playground', () => {
    const browse = page('catalog/browse');
    expect(h1(browse)).toBe('GET Browse the catalog');
    expect(article(browse)).toContain('<div class="openapi-content"><p>Items are <strong>read-only</strong> for partners.</p></div>');
    expect(browse).not.toContain('openapi-playground');
    expect(page('reference/orders/get-an-order')).toContain('class="openapi-playground"');
  });

  it('send readers of the old /api-reference/<operationId>/ address on to the new one', () => {
    const old = site.read('api-reference/get-order/index.html');
    expect(old).toContain('<meta http-equiv="refresh" content="0; url=/reference/orders/get-an-order/">');
    expect(site.exists('api-reference/create-order/index.html')).toBe(true);
    expect(site.read('sitemap.xml')).not.toContain('/api-reference/get-order/');
    expect(site.exists('_folio/redirects.txt')).toBe(false); // the build's list, used and removed
  });

  it('place the pages of navigation entries with openapi where the entry is (a group, a tab), hidden ones left out', () => {
    const nav = sidebarOf(page('guide'));
    const section = (from: string, to?: string) => nav.slice(nav.indexOf(`>${from}<`), to ? nav.indexOf(`>${to}<`) : undefined);
    const ordering = section('Ordering', 'Orders');
    expect(ordering).toContain('href="/ordering/orders/create-an-order/"');
    expect(ordering).toContain('href="/ordering/orders/order-shipped/"');
    expect(ordering).not.toContain('get-an-order');
    expect(nav).toContain('href="/reference/orders/get-an-order/"');
    expect(nav).not.toContain('cancel-an-order-now');
    // The tab with only a spec leads to its first operation, and its sidebar lists them all.
    expect(page('guide')).toContain('<a class="site-tab nav-tabs-item" href="/api-reference/list-stock/">Warehouse API</a>');
    expect(nav).not.toContain('list-stock');
    const warehouse = sidebarOf(page('api-reference/list-stock'));
    expect(warehouse).toContain('href="/api-reference/list-stock/" aria-current="page"><span class="api-method nav-method" style="--method-color: var(--docs-success)" data-method="GET">GET</span> List stock</a>');
    expect(warehouse).toContain('data-method="POST">POST</span> Add stock</a>');
    expect(warehouse).not.toContain('get-an-order');
  });

  it('serve the spec files at their own paths, as Mintlify\'s layout serves every other file', () => {
    expect(JSON.parse(site.read('specs/shop.json'))).toMatchObject({ openapi: '3.1.0' });
  });
});

describe('openapi: frontmatter pages', () => {
  it('render the named operation with the page\'s own content, in all three forms, the path quoted or not', () => {
    const order = page('order');
    expect(h1(order)).toBe('GET Get an order');
    expect(text(article(order))).toContain('Orders are kept for seven years.');
    expect(article(order)).toContain('id="path-parameters"');
    expect(h1(page('restock'))).toBe('POST Restock');
    expect(h1(page('shipped'))).toBe('WEBHOOK Order shipped');
    expect(h1(page('order-quoted'))).toBe('GET Get an order');
    // Found in extra/billing.yaml, which nothing names (drafts/ is in .mintignore); frontmatter asks for the simple playground.
    const invoices = page('invoices');
    expect(h1(invoices)).toBe('GET List invoices');
    expect(article(invoices)).toContain('<p class="playground-simple"><code>GET https://billing.example.com/invoices</code></p>');
    expect(invoices).not.toContain('playground-form');
  });

  it('show method badges in the sidebar', () => {
    const nav = sidebarOf(page('guide'));
    expect(nav).toContain('<a href="/order/"><span class="api-method nav-method" style="--method-color: var(--docs-success)" data-method="GET">GET</span> Get an order</a>');
    expect(nav).toContain('data-method="POST">POST</span> Restock</a>');
  });
});

describe('examples and schemas', () => {
  it('offer curl, Python, JavaScript and Go in docs.json order after the author\'s x-codeSamples, optional parameters included', () => {
    const html = article(page('reference/orders/get-an-order'));
    const tabs = [...html.matchAll(/role="tab"[^>]*data-lang="([^"]+)">([^<]+)</g)].map((m) => `${m[1]}:${m[2]}`);
    expect(tabs).toEqual(['ruby:Ruby SDK', 'bash:cURL', 'python:Python', 'javascript:JavaScript', 'go:Go']);
    const body = text(html);
    expect(body).toContain('Shop::Order.find(&quot;ord_42&quot;)');
    // api.examples.defaults "all": the optional query parameter is in every example.
    expect(body).toContain("curl -X GET &#39;https://api.shop.example.com/v2/orders/ord_42?expand=items&#39;");
    expect(body).toContain('requests.request(&quot;GET&quot;, url, headers=headers)');
    expect(body).toContain('await fetch(&quot;https://api.shop.example.com/v2/orders/ord_42?expand=items&quot;');
    expect(body).toContain('http.NewRequest(&quot;GET&quot;, &quot;https://api.shop.example.com/v2/orders/ord_42?expand=items&quot;, nil)');
    const create = text(article(page('reference/orders/create-an-order')));
    expect(create).toContain('&quot;X-Shop-Key&quot;: &quot;&lt;api-key&gt;&quot;');
    expect(create).toContain('payload = { &quot;sku&quot;: &quot;sku_red_mug&quot;, &quot;quantity&quot;: 1, &quot;gift&quot;: True,');
  });

  it('show response examples per status and media type', () => {
    const html = article(page('reference/orders/get-an-order'));
    const ok = html.slice(html.indexOf('data-status="200"'), html.indexOf('data-status="404"'));
    expect(ok).toContain('data-media-type="application/json"');
    expect(ok).toContain('Example: A paid order');
    expect(ok).toContain('data-media-type="text/csv"');
    expect(ok).toContain('id,status\nord_42,paid');
    expect(html.slice(html.indexOf('data-status="404"'))).toContain('&quot;error&quot;: &quot;not_found&quot;');
  });

  it('show every schema form: type lists, const, enum, combinators, maps, arrays, recursion', () => {
    const html = article(page('reference/orders/get-an-order'));
    const node = (name: string) => html.slice(html.indexOf(`data-schema-name="${name}"`), html.indexOf('</div>', html.indexOf(`data-schema-name="${name}"`)));
    expect(node('note')).toContain('schema-nullable');
    expect(html).toContain('<code>const: order</code>');
    expect(html).toContain('data-schema-name="status"');
    expect(text(html)).toContain('Allowed: &quot;open&quot;&quot;paid&quot;&quot;shipped&quot;');
    expect(html).toContain('One of:');
    expect(html).toContain('All of:');
    expect(node('discount')).toContain('schema-nullable');
    expect(html).toContain('data-schema-name="{key}"');
    expect(html).toContain('circular: Order');
  });

  it('build the playground from the operation: servers, its security schemes, typed fields', () => {
    const html = article(page('reference/orders/create-an-order'));
    expect(html).toContain('<option value="https://api.shop.example.com/v2">');
    expect(html).toContain('<option value="https://sandbox.shop.example.com">');
    expect(html).toContain('apiKey (X-Shop-Key header)');
    expect(html).not.toContain('Bearer token');
    expect(html).toMatch(/<input id="try-body-quantity" data-field data-in="body" data-name="quantity" data-type="integer" type="number" step="1" min="1" max="99" required value="1"/);
    expect(html).toMatch(/<select id="try-body-gift" data-field data-in="body" data-name="gift" data-type="boolean">/);
    expect(html).not.toContain('try-body-id'); // readOnly
    // OAuth 2.0 and OpenID Connect take an access token the reader pastes, sent as a bearer token.
    const auth = text(article(page('reference/orders/get-an-order')));
    expect(auth).toContain('bearer (Bearer token)');
    expect(auth).toContain('oauth (OAuth 2.0 access token)');
    expect(auth).toContain('oidc (OpenID Connect access token)');
    // Webhooks are received, not sent: no playground, no request examples.
    expect(page('reference/orders/order-shipped')).not.toContain('openapi-playground');
  });

  it('build nested objects and lists field by field, with the format and pattern to check', () => {
    const html = article(page('reference/orders/create-an-order'));
    const shipping = html.slice(html.indexOf('<fieldset class="playground-object" id="try-body-shipping"'), html.indexOf('<fieldset class="playground-array" id="try-body-lines"'));
    expect(shipping).toContain('<legend><code>shipping</code></legend>');
    expect(shipping).toMatch(/<input id="try-body-shipping-city" data-field data-in="body" data-name="city" data-type="string" type="text" required value="Lisbon"/);
    expect(shipping).toMatch(/<input id="try-body-shipping-postcode"[^>]* pattern="\^\[0-9\]\{4\}-\[0-9\]\{3\}\$"/);
    expect(shipping).toMatch(/<input id="try-body-shipping-contact"[^>]* data-format="email"/);
    // A list of objects starts empty, with one item's fields in a template the Add button copies.
    const lines = html.slice(html.indexOf('id="try-body-lines"'), html.indexOf('id="try-body-labels"'));
    expect(lines).toContain('<ol class="playground-items"></ol><template><li class="playground-item"><fieldset class="playground-object" id="try-body-lines-__N0__"');
    expect(lines).toContain('<button type="button" class="playground-add">Add lines item</button>');
  });

  it('prefill the playground from the author\'s examples when docs.json asks (api.examples.prefill)', () => {
    const html = article(page('reference/orders/create-an-order'));
    expect(html).toMatch(/<input id="try-body-sku"[^>]* minlength="3" required value="sku_red_mug"/);
    const labels = [...html.slice(html.indexOf('id="try-body-labels"')).matchAll(/<input id="try-body-labels-\d+"[^>]* value="([^"]+)"/g)].map((m) => m[1]);
    expect(labels).toEqual(['fragile', 'gift']);
  });

  it('list the interactive playgrounds\' API origins for the site\'s connect-src', () => {
    expect(site.read('_folio/connect-origins.txt').trim().split('\n')).toEqual([
      'https://api.shop.example.com',
      'https://sandbox.shop.example.com',
      'https://warehouse.example.com',
    ]);
  });
});
