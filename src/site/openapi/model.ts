// The render model of an OpenAPI document: plain, JSON-serialisable data that the Astro
// components, the sidebar, search and llms.txt read. Nothing here refers back to the document.

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

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

export interface OperationPageModel {
  kind: 'openapi';
  /** Page path without leading or trailing slash, e.g. `api-reference/create-project`. */
  path: string;
  /** Last segment of `path`. */
  slug: string;
  title: string;
  method: HttpMethod;
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
}

export interface NavItem {
  path: string;
  title: string;
  method: HttpMethod;
  deprecated: boolean;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

export interface OpenApiPages {
  pages: OperationPageModel[];
  groups: NavGroup[];
}
