/** An OpenAPI file that cannot be used; the message names the file and where the problem is. */
export class OpenApiError extends Error {
  /** The file's path relative to the content root (or as given, when it is not inside it). */
  readonly file: string;
  /** No file is at the path (an `openapi:` frontmatter is then resolved as Mintlify resolves it, sources.ts). */
  readonly missing: boolean;
  constructor(file: string, message: string, options: { missing?: boolean } = {}) {
    super(message);
    this.name = 'OpenApiError';
    this.file = file;
    this.missing = options.missing ?? false;
  }
}
