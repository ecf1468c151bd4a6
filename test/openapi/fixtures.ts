// Content roots with small OpenAPI files, written to temp dirs by the tests.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A 3.0 YAML spec: tags, untagged and hidden operations, every parameter location, combinators, recursion. */
export const PETSTORE_30_YAML = `openapi: 3.0.3
info:
  title: Pet store
  version: 1.0.0
servers:
  - url: https://{region}.pets.example.com/v2
    variables:
      region:
        default: eu
tags:
  - name: Store
  - name: Pets
    description: Everything about pets
  - name: Unused
paths:
  /pets/{petId}:
    parameters:
      - name: petId
        in: path
        required: true
        description: The pet's id
        schema: { type: integer, format: int64, minimum: 1 }
      - name: verbose
        in: query
        schema: { type: boolean }
    get:
      tags: [Pets]
      operationId: getPetById
      summary: Find a pet
      description: |
        Returns **one** pet.

        <script>alert("x")</script>
        [danger](javascript:alert(1))
      parameters:
        - name: verbose
          in: query
          description: Include the owner
          schema: { type: boolean, default: false }
        - name: X-Request-Id
          in: header
          required: true
          schema: { type: string, format: uuid }
        - name: session
          in: cookie
          schema: { type: string }
        - name: fields
          in: query
          schema:
            type: array
            items: { type: string, enum: [name, tag, status] }
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
              example: { id: 7, name: Rex, status: available }
        '404':
          description: No such pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Error' }
        default:
          description: Unexpected error
    delete:
      tags: [Pets]
      operationId: deletePet
      summary: Delete a pet
      deprecated: true
      responses:
        '204': { description: Deleted }
  /pets:
    get:
      tags: [Pets]
      operationId: listPets
      summary: List pets
      parameters:
        - name: status
          in: query
          required: true
          schema: { type: string, enum: [available, sold], default: available }
      responses:
        '200':
          description: Pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Pet' }
    post:
      tags: [Pets]
      operationId: list-pets
      summary: Create a pet (operationId collides with listPets once slugified)
      requestBody:
        required: true
        description: The new pet
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPet' }
            examples:
              dog: { summary: A dog, value: { name: Rex, kind: { barks: true } } }
              cat: { value: { name: Tom, kind: { meows: 3 } } }
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                name: { type: string }
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
  /store/inventory:
    get:
      tags: [Store]
      summary: Inventory
      responses:
        '200':
          description: Counts by status
          content:
            application/json:
              schema:
                type: object
                additionalProperties: { type: integer }
  /health:
    get:
      responses:
        '200': { description: OK }
  /internal:
    get:
      x-hidden: true
      operationId: internalOnly
      responses:
        '200': { description: OK }
components:
  schemas:
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - type: object
          required: [id]
          properties:
            id: { type: integer, format: int64 }
            status: { type: string, enum: [available, sold], nullable: true }
            category: { $ref: '#/components/schemas/Category' }
    NewPet:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1, maxLength: 40, description: Display name }
        tags:
          type: array
          items: { type: string }
        kind:
          oneOf:
            - $ref: '#/components/schemas/Dog'
            - $ref: '#/components/schemas/Cat'
        nickname:
          anyOf:
            - type: string
            - type: integer
    Dog:
      type: object
      properties:
        barks: { type: boolean }
    Cat:
      type: object
      properties:
        meows: { type: integer }
    Category:
      type: object
      properties:
        name: { type: string }
        parent: { $ref: '#/components/schemas/Category' }
    Error:
      type: object
      required: [error, message]
      properties:
        error: { type: string }
        message: { type: string }
`;

/** A 3.1 JSON spec: `type: [x, "null"]`, schema `examples`, security scopes, `x-scopes`, a split file. */
export const TODO_31 = {
  openapi: '3.1.0',
  info: { title: 'Todos', version: '2' },
  security: [{ bearer: ['todos:read'] }],
  paths: {
    '/todos/{id}': {
      get: {
        operationId: 'getTodo',
        summary: 'Get a todo',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: {
          '200': {
            description: 'The todo',
            headers: { 'X-RateLimit-Remaining': { description: 'Requests left', schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Todo' } } },
          },
        },
      },
      patch: {
        operationId: 'updateTodo',
        'x-scopes': ['todos:write'],
        security: [{ bearer: ['todos:write'] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          content: { 'application/json': { schema: { $ref: './schemas/todo-patch.json' } } },
        },
        responses: { '200': { description: 'Updated' } },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Todo: {
        type: 'object',
        required: ['id', 'title'],
        properties: {
          id: { type: 'string', format: 'uuid' },
          title: { type: 'string', examples: ['Buy milk'] },
          due: { type: ['string', 'null'], format: 'date-time' },
          priority: { enum: ['low', 'high', null] },
          children: { type: 'array', items: { $ref: '#/components/schemas/Todo' } },
        },
      },
    },
  },
};

export const TODO_PATCH_SCHEMA = {
  type: 'object',
  properties: { title: { type: 'string' }, done: { type: 'boolean' } },
};

export interface ContentRoot {
  dir: string;
  write(path: string, text: string): void;
  remove(): void;
}

/** A temporary content root with the given files. */
export function contentRoot(files: Record<string, string> = {}): ContentRoot {
  const dir = mkdtempSync(join(tmpdir(), 'folio-openapi-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
