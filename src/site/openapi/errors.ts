/** An OpenAPI file that cannot be used; the message names the file and where the problem is. */
export class OpenApiError extends Error {
  /** The file's path relative to the content root (or as given, when it is not inside it). */
  readonly file: string;
  constructor(file: string, message: string) {
    super(message);
    this.name = 'OpenApiError';
    this.file = file;
  }
}
