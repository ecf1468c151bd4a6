// OpenAPI documents for the Mintlify-compatible attachment forms (issue 11), written for Folio's tests.

/**
 * A 3.1 document: tags, summaries that become addresses, webhooks, x-hidden, x-excluded, x-mint,
 * x-codeSamples, two servers, bearer, API-key, OAuth 2.0 and OpenID Connect security, a request
 * body with nested objects and lists, response examples per status and media type, and every
 * schema form (type lists, const, enum, oneOf/anyOf/allOf, maps, arrays, recursion).
 */
export const SHOP_31 = {
  openapi: '3.1.0',
  info: { title: 'Shop', version: '2.0.0' },
  servers: [{ url: 'https://api.shop.example.com/v2' }, { url: 'https://{env}.shop.example.com', variables: { env: { default: 'sandbox' } } }],
  security: [{ bearer: [] }],
  tags: [{ name: 'Orders' }, { name: 'Catalog Items' }],
  paths: {
    '/orders/{orderId}': {
      parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'string', pattern: '^ord_[a-z0-9]+$' }, example: 'ord_42' }],
      get: {
        tags: ['Orders'],
        operationId: 'getOrder',
        summary: 'Get an order',
        parameters: [{ name: 'expand', in: 'query', schema: { type: 'string', enum: ['items', 'customer'] } }],
        // Any one of these: an HTTP bearer token, or an access token from OAuth 2.0 or OpenID Connect.
        security: [{ bearer: [] }, { oauth: ['orders:read'] }, { oidc: [] }],
        'x-codeSamples': [{ lang: 'ruby', label: 'Ruby SDK', source: 'Shop::Order.find("ord_42")' }],
        responses: {
          '200': {
            description: 'The order',
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Order' },
                examples: { paid: { summary: 'A paid order', value: { id: 'ord_42', status: 'paid', total: 1999 } } },
              },
              'text/csv': { schema: { type: 'string' }, example: 'id,status\nord_42,paid' },
            },
          },
          '404': { description: 'No such order', content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' }, example: { error: 'not_found' } } } },
        },
      },
      delete: {
        tags: ['Orders'],
        summary: 'Cancel (an) order, now.',
        'x-hidden': true,
        responses: { '204': { description: 'Cancelled' } },
      },
    },
    '/orders': {
      post: {
        tags: ['Orders'],
        operationId: 'createOrder',
        summary: 'Create an order',
        security: [{ apiKey: [] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/NewOrder' } } },
        },
        responses: { '201': { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
      },
      get: {
        tags: ['Orders'],
        summary: 'Internal export',
        'x-excluded': true,
        responses: { '200': { description: 'All orders' } },
      },
    },
    '/items': {
      get: {
        tags: ['Catalog Items'],
        summary: 'List items',
        'x-mint': {
          metadata: { title: 'Browse the catalog', playground: 'none' },
          content: 'Items are **read-only** for partners.',
          href: '/catalog/browse',
        },
        responses: { '200': { description: 'Items', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } } } },
      },
    },
    '/health/{region}': {
      get: {
        parameters: [{ name: 'region', in: 'path', required: true, schema: { type: 'string' } }],
        security: [],
        responses: { '200': { description: 'Up' } },
      },
    },
  },
  webhooks: {
    'order.shipped': {
      post: {
        tags: ['Orders'],
        summary: 'Order shipped',
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' }, carrier: { const: 'parcelco' } } } } } },
        responses: { '200': { description: 'Acknowledge with any 2XX' } },
      },
    },
    'stock.low': {
      post: {
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
        responses: { '200': { description: 'Received' } },
      },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Shop-Key' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.shop.example.com/token', scopes: { 'orders:read': 'Read orders' } } } },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://auth.shop.example.com/.well-known/openid-configuration' },
    },
    schemas: {
      Order: {
        type: 'object',
        required: ['id', 'status'],
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['open', 'paid', 'shipped'] },
          total: { type: 'integer', minimum: 0 },
          note: { type: ['string', 'null'] },
          kind: { const: 'order' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
          items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { $ref: '#/components/schemas/Invoice' }] },
          discount: { anyOf: [{ type: 'number' }, { type: 'null' }] },
          audit: { allOf: [{ type: 'object', properties: { by: { type: 'string' } } }, { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } }] },
          parent: { $ref: '#/components/schemas/Order' },
        },
      },
      NewOrder: {
        type: 'object',
        required: ['sku', 'quantity'],
        properties: {
          sku: { type: 'string', minLength: 3, examples: ['sku_red_mug'] },
          quantity: { type: 'integer', minimum: 1, maximum: 99, default: 1 },
          gift: { type: 'boolean' },
          id: { type: 'string', readOnly: true },
          // Nested forms the playground builds field by field.
          shipping: {
            type: 'object',
            required: ['city'],
            properties: {
              city: { type: 'string', example: 'Lisbon' },
              postcode: { type: 'string', pattern: '^[0-9]{4}-[0-9]{3}$' },
              contact: { type: 'string', format: 'email' },
            },
          },
          lines: { type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } } } },
          labels: { type: 'array', items: { type: 'string' }, examples: [['fragile', 'gift']] },
        },
      },
      Item: { type: 'object', properties: { sku: { type: 'string' }, stock: { type: 'integer' } } },
      Card: { type: 'object', properties: { last4: { type: 'string' } } },
      Invoice: { type: 'object', properties: { due: { type: 'string', format: 'date' } } },
      Problem: { type: 'object', properties: { error: { type: 'string' } } },
    },
  },
};

/** A 3.0 document written with 3.1 forms (a type list, const, a schema `examples` list): Mintlify builds it. */
export const LENIENT_30_YAML = `openapi: 3.0.3
info:
  title: Warehouse
  version: 1.0.0
servers:
  - url: https://warehouse.example.com
paths:
  /items:
    get:
      summary: List stock
      responses:
        '200':
          description: Stock
          content:
            application/json:
              schema:
                type: object
                properties:
                  name:
                    type: [string, "null"]
                  unit:
                    const: piece
                  tags:
                    type: array
                    items: { type: string }
                    examples: [[a, b]]
    post:
      summary: Add stock
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { sku: { type: string } } }
      responses:
        '201': { description: Added }
`;

/** A document that is broken whatever the version: `responses` must be an object (line 9, column 7). */
export const BROKEN_30_YAML = `openapi: 3.0.3
info:
  title: Broken
  version: 1.0.0
paths:
  /things:
    get:
      summary: Things
      responses: 42
`;

/** A document found in the content root without being named anywhere. */
export const BILLING_31_YAML = `openapi: 3.1.0
info:
  title: Billing
  version: 1.0.0
servers:
  - url: https://billing.example.com
paths:
  /invoices:
    get:
      summary: List invoices
      operationId: listInvoices
      responses:
        '200':
          description: Invoices
`;
