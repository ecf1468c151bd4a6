// The render model of an OpenAPI document: plain, JSON-serialisable data that the Astro
// components, the sidebar, search and llms.txt read. Nothing here refers back to the document.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type OperationMethod = (typeof OPERATION_METHODS)[number];

export const PARAMETER_LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

/** One node of a schema shown as a nested table. */
export interface SchemaNode {
  /** Property name when the node is an object property. */
  name?: string;
  required: boolean;
  /** Readable type: `string`, `integer`, `array`, `object`, `oneOf`, or a mix such as `string | integer`. */
  type: string;
  format?: string;
  /** Name of the component the schema came from (`#/components/schemas/Pet` → `Pet`). */
  refName?: string;
  nullable: boolean;
  description?: string;
  enum?: JsonValue[];
  default?: JsonValue;
  /** Human-readable limits: `minLength: 1`, `pattern: ^[a-z]+$`, … */
  constraints: string[];
  deprecated: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** Set on a leaf that points back to a schema already being shown: the name of that schema. */
  circular?: string;
  /** allOf / oneOf / anyOf variants. */
  combinator?: 'allOf' | 'oneOf' | 'anyOf';
  variants?: SchemaNode[];
  properties?: SchemaNode[];
  /** Schema of array items. */
  items?: SchemaNode;
  /** Schema of values of a map (`additionalProperties`). */
  additionalProperties?: SchemaNode;
}

export interface ExampleModel {
  /** Key in `examples`, absent for a single `example` or a synthesised one. */
  name?: string;
  summary?: string;
  /** Pretty-printed JSON (or the literal string for non-JSON media). */
  value: string;
  synthesized: boolean;
}

export interface ParameterModel {
  name: string;
  in: ParameterLocation;
  required: boolean;
  deprecated: boolean;
  /** Markdown. */
  description?: string;
  type: string;
  schema?: SchemaNode;
  default?: JsonValue;
  enum?: JsonValue[];
  example?: JsonValue;
}

export interface MediaTypeModel {
  mediaType: string;
  schema?: SchemaNode;
  examples: ExampleModel[];
}

export interface RequestBodyModel {
  required: boolean;
  /** Markdown. */
  description?: string;
  content: MediaTypeModel[];
}

export interface HeaderModel {
  name: string;
  required: boolean;
  description?: string;
  type: string;
  schema?: SchemaNode;
}

export interface ResponseModel {
  /** `200`, `4XX` or `default`. */
  status: string;
  /** Markdown. */
  description: string;
  headers: HeaderModel[];
  content: MediaTypeModel[];
}

export interface PathSegment {
  text: string;
  /** True for a `{param}` placeholder, which the page highlights. */
  param: boolean;
}

export interface SecurityModel {
  scheme: string;
  /** `http bearer`, `apiKey header X-Key`, `oauth2`, … */
  kind: string;
  scopes: string[];
}

/** One request example: generated (curl, JavaScript, Python, Go) or the author's `x-codeSamples`. */
export interface CodeSampleModel {
  /** Language key, lower case: `bash`, `javascript`, `python`, `go`, or what the author wrote. */
  lang: string;
  /** Tab label. */
  label: string;
  source: string;
}

/** A credential input of the playground, for one security scheme of the operation. */
export interface PlaygroundAuth {
  scheme: string;
  /** How the credential is sent (OAuth 2.0 and OpenID Connect access tokens as bearer tokens). */
  kind: 'bearer' | 'basic' | 'apiKey';
  /** The scheme's type when it is not plain HTTP bearer: what the label calls the token. */
  flavour?: 'oauth2' | 'openIdConnect';
  /** apiKey only: where and under which name (a browser cannot send another site's cookies). */
  in?: 'header' | 'query';
  name?: string;
}

/**
 * One input of the playground, built from a parameter or a body property: a typed value, an object
 * of fields, or a list of items built from one item's field.
 */
export interface PlaygroundField {
  in: ParameterLocation | 'body';
  name: string;
  required: boolean;
  /** `json` for what the form cannot build (combinators, maps, circular or deep schemas). */
  type: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'object' | 'array';
  enum?: JsonValue[];
  /** The schema's `format` (`email`, `uri`, `uuid`, `date`, `date-time`, …), checked before sending. */
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Prefilled value, as typed into the field. */
  value?: string;
  /** The author's example, shown in the empty field when it is not prefilled. */
  placeholder?: string;
  /** `object`: the fields of its properties. */
  properties?: PlaygroundField[];
  /** `array`: the field one item is made of (its name is the list's). */
  items?: PlaygroundField;
  /** `array`: the items it starts with (prefilled from an example). */
  initial?: PlaygroundField[];
  /** `array`: at least this many items. */
  minItems?: number;
}

export interface PlaygroundModel {
  /** `interactive` sends requests; `simple` shows the request without sending it. */
  display: 'interactive' | 'simple';
  /** Server URLs (variables at their defaults), the first selected. */
  servers: string[];
  /** The operation's security schemes the playground can fill in (first requirement first). */
  auth: PlaygroundAuth[];
  fields: PlaygroundField[];
  /** Body media type, when the operation takes one. */
  bodyMediaType?: string;
  /** True when the body is sent as one JSON text field (not an object with properties). */
  rawBody?: boolean;
}

export interface OperationPageModel {
  kind: 'openapi';
  /** Set for a webhook (`webhooks` of a 3.1 document): its name. The page then has no playground. */
  webhook?: string;
  /** `x-hidden`: the page exists but is left out of the navigation. */
  hidden?: boolean;
  /** Markdown the author put before the reference (`x-mint.content`). */
  content?: string;
  /** The OpenAPI file (relative to the content root). */
  file?: string;
  /** Where Folio put this page before it used Mintlify's addresses (see operations.ts legacySlug). */
  legacySlug?: string;
  /** Page path without leading or trailing slash, e.g. `api-reference/create-project`. */
  path: string;
  /** Last segment of `path`. */
  slug: string;
  title: string;
  method: OperationMethod;
  /** The path template as written in the document: `/v1/projects/{id}`. */
  apiPath: string;
  pathSegments: PathSegment[];
  operationId?: string;
  /** Markdown. */
  summary?: string;
  /** Markdown. */
  description?: string;
  deprecated: boolean;
  /** Navigation group (first tag, or the untagged group's label). */
  group: string;
  tags: string[];
  parameters: Record<ParameterLocation, ParameterModel[]>;
  requestBody?: RequestBodyModel;
  responses: ResponseModel[];
  security: SecurityModel[];
  /** Scopes named by an `x-scopes` extension on the operation, else those of its security requirements. */
  scopes: string[];
  serverUrl?: string;
  curl: string;
  /** Request examples in tab order. */
  codeSamples: CodeSampleModel[];
  /** The try-it panel; absent when docs.json or `x-mint` says `none`, and for webhooks. */
  playground?: PlaygroundModel;
}

export interface OperationLink {
  path: string;
  hidden?: boolean;
  webhook?: string;
  title: string;
  method: OperationMethod;
  deprecated: boolean;
}

export interface OperationGroup {
  label: string;
  items: OperationLink[];
}

export interface OpenApiPages {
  pages: OperationPageModel[];
  groups: OperationGroup[];
}
