// What a project with code enabled (`allow_code`) may import, shared by the content check and the
// build's resolver: files inside the content root, written relative to the importing file
// (`./counter.jsx`) or from the content root (`/snippets/counter.jsx`, Mintlify's form), and React.
// Nothing else: no Node built-ins, no other package, nothing outside the content root.
import path from 'node:path';

/** Files a page may import when code is enabled. */
export const PAGE_IMPORT_FILE = /\.(?:js|jsx|ts|tsx|md|mdx)$/;
/** Files whose components are React components (hydrated in the reader's browser). */
export const CODE_FILE = /\.(?:js|jsx|ts|tsx)$/;
/** The only packages content code may import. */
export const REACT_PACKAGES: ReadonlySet<string> = new Set(['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom', 'react-dom/client']);

export const IMPORT_RULE =
  'code may import only .js, .jsx, .ts, .tsx, .md and .mdx files inside the content root (relative, as "./x.jsx", or from the content root, as "/snippets/x.jsx") and the react package';

/**
 * The content-root-relative path (`snippets/counter.jsx`) an import specifier names from the file
 * `importer` (itself relative to the content root), or undefined when the specifier is not a path
 * (a package, `node:fs`, a URL) or leaves the content root.
 */
export function importTarget(specifier: string, importer: string): string | undefined {
  if (specifier.includes('\\') || specifier.includes('\0')) return undefined;
  let target: string;
  if (specifier.startsWith('/') && !specifier.startsWith('//')) target = path.posix.normalize(specifier.slice(1));
  else if (specifier.startsWith('./') || specifier.startsWith('../')) target = path.posix.normalize(path.posix.join(path.posix.dirname(importer), specifier));
  else return undefined;
  if (!target || target === '.' || target === '..' || target.startsWith('../') || path.posix.isAbsolute(target)) return undefined;
  return target;
}

/** True when an import a page may make brings React components (from react or a code file). */
export function isCodeImport(specifier: string): boolean {
  return REACT_PACKAGES.has(specifier) || CODE_FILE.test(specifier.split(/[?#]/)[0] ?? '');
}

/** Why a page may not import `specifier` with code enabled, or undefined when it may. */
export function pageImportProblem(specifier: string, importer: string): string | undefined {
  if (REACT_PACKAGES.has(specifier)) return undefined;
  const why = importRefusal(specifier, importer);
  return why && `import "${specifier}" is not allowed: ${IMPORT_RULE} (${why})`;
}

function importRefusal(specifier: string, importer: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier) || specifier.startsWith('//')) return 'URLs and built-in modules cannot be imported';
  if (!/^\.{0,2}\//.test(specifier)) return 'packages cannot be imported';
  // Vite decodes `%` escapes and reads queries (`?raw`, `?url`) as loaders of their own.
  if (/[?#%\\\0]/.test(specifier)) return 'the path may not contain "?", "#", "%" or "\\"';
  if (!PAGE_IMPORT_FILE.test(specifier)) return 'the file is not a script or content file';
  if (!importTarget(specifier, importer)) return 'the path leaves the content root';
  return undefined;
}
