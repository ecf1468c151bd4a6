// The build of a project with code enabled (`allow_code`, `build:site --allow-code`): React
// components rendered with @astrojs/react and hydrated, pages rewritten as page-code.ts explains,
// React hooks available without an import (as Mintlify provides them), and a resolver that lets
// content code import nothing but files of the content root and React. Only loaded by such builds:
// a default build never loads React.
//
// The resolver confines what the bundler reads; it is not a sandbox (code that runs while pages are
// rendered runs in the build process): builds with code run in a fresh process, never a warm worker.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { parse } from 'acorn';
import type { Program } from 'estree';
import { COMPANION_SUFFIX, pageCode, patternNames } from './page-code.ts';
import { repoRoot, siteSrcDir } from '../settings.ts';
import { IMPORT_RULE, REACT_PACKAGES, importTarget } from './imports.ts';
import { COMPONENT_NAMES } from '../components/catalog.ts';
import { javascriptShipped, javascriptShippedLine } from './javascript-shipped.ts';

/**
 * The module of Folio's built-in components as React components, which content code uses without
 * an import (the hooks plugin below adds it), as Mintlify provides them.
 */
export const REACT_COMPONENTS_MODULE = 'folio:components';
const REACT_COMPONENTS_FILE = path.join(siteSrcDir, 'components/react-components.ts');
/**
 * Modules of the built-in components that only the build needs, each with the stub the reader's
 * browser gets instead: React keeps what the server wrote with them when it hydrates
 * (react-components.ts). The icon library (Node's fs and every icon's SVG) and KaTeX.
 */
const SERVER_ONLY: Record<string, string> = {
  [path.join(siteSrcDir, 'components/mintlify/icons.ts')]: 'export const iconHtml = () => "";\nexport const namedIconSvg = () => "";\n',
  [path.join(siteSrcDir, 'components/mintlify/latex.ts')]: 'export const latexHtml = () => "";\n',
};

/** The Astro integrations of a build with code: React, then Folio's code plugins. */
export async function codeIntegrations(contentRoot: string): Promise<AstroIntegration[]> {
  const { default: react } = await import('@astrojs/react');
  const plugins: AstroIntegration = {
    name: 'folio-code',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: codeVitePlugins(contentRoot) } });
      },
      'astro:build:done': ({ dir }) => {
        console.log(javascriptShippedLine(javascriptShipped(fileURLToPath(dir))));
      },
    },
  };
  return [react(), plugins];
}

/**
 * Modules the MDX and Markdown compilers themselves make pages import (the JSX runtime, image
 * helpers): allowed from pages, never from code files.
 */
const COMPILER_IMPORTS = /^(?:astro\/(?:jsx-runtime|runtime\/|compiler-runtime)|astro:(?:assets|content))/;

/** A module id without its query (`page.mdx?astroContentCollectionEntry=true`). */
const clean = (id: string) => id.split('?')[0] ?? id;

export function codeVitePlugins(contentRoot: string): Plugin[] {
  const root = path.resolve(contentRoot);
  let realRoot = root;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    // a missing root fails the build elsewhere, with its own message
  }
  const under = (file: string, base: string) => {
    const rel = path.relative(base, file);
    return !!rel && !rel.startsWith('..') && !path.isAbsolute(rel);
  };
  // Folio's own modules and packages are not content, even when the content root holds them (Folio's
  // own docs are built from the repository root).
  const folio = [siteSrcDir, path.join(repoRoot, 'node_modules'), path.join(repoRoot, '.folio-builds')];
  const inside = (file: string) => (under(file, root) || under(file, realRoot)) && !folio.some((dir) => under(file, dir));
  const isPage = (id: string) => id.endsWith('.mdx') && inside(id);
  const companionPage = (id: string) => (id.endsWith(COMPANION_SUFFIX) ? id.slice(0, -COMPANION_SUFFIX.length) : undefined);
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');

  /** The export declarations of an MDX file of the content root (none when it cannot be read). */
  const exportsOf = (mdxFile: string): string[] => {
    if (!isPage(mdxFile)) return [];
    try {
      if (!inside(fs.realpathSync(mdxFile))) return [];
      return pageCode(fs.readFileSync(mdxFile, 'utf8'), mdxFile, root).declared;
    } catch {
      return []; // a missing file is reported by the bundler, with the import that names it
    }
  };

  const confine: Plugin = {
    name: 'folio-code-confine-imports',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source === REACT_COMPONENTS_MODULE) return REACT_COMPONENTS_FILE;
      if (companionPage(clean(source)) && isPage(companionPage(clean(source))!)) return clean(source);
      if (!importer) return null;
      const from = clean(importer);
      if (!inside(from)) return null; // Folio's own modules
      if (REACT_PACKAGES.has(source)) return null;
      const fromContent = from.endsWith('.md') || from.endsWith('.mdx');
      if (fromContent && COMPILER_IMPORTS.test(source)) return null;
      const file = clean(source);
      // An absolute path inside the content root (written by page-code.ts) or a path in it.
      const target = path.isAbsolute(file) && inside(file) ? relative(file) : importTarget(file, relative(from));
      const refuse = () => this.error(`${relative(from)}: import "${source}" is not allowed: ${IMPORT_RULE}`);
      if (!target) return refuse();
      const query = source.slice(file.length);
      const resolved = await this.resolve(path.join(root, target) + query, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external) return refuse();
      // Symbolic links are followed by the resolver: the real file must be inside too.
      const real = clean(resolved.id);
      let realFile = real;
      try {
        realFile = fs.realpathSync(real);
      } catch {
        // a file that does not exist yet (a virtual id) keeps its own path
      }
      if (!inside(real) || !inside(realFile)) return refuse();
      return resolved;
    },
    load(id, options) {
      // Hydrating keeps the icons and formulas the server wrote (react-components.ts): the browser needs neither library.
      if (!options?.ssr && Object.hasOwn(SERVER_ONLY, clean(id))) return SERVER_ONLY[clean(id)];
      const page = companionPage(clean(id));
      if (!page || !isPage(page)) return null;
      return pageCode(fs.readFileSync(page, 'utf8'), page, root, exportsOf).companion ?? 'export {};\n';
    },
    transform: {
      filter: { id: /\.mdx$/ },
      handler(code, id) {
        if (!isPage(clean(id))) return null;
        const { page } = pageCode(code, clean(id), root, exportsOf);
        return page === code ? null : { code: page, map: null };
      },
    },
  };

  const hooks: Plugin = {
    name: 'folio-code-react-hooks',
    enforce: 'post',
    transform(code, id) {
      const file = clean(id);
      if (!/\.[jt]sx?$/.test(file) || !inside(file)) return null;
      const missing = missingReactNames(code);
      if (!missing.names.length && !missing.react && !missing.components.length) return null;
      const lines = [];
      if (missing.react) lines.push('import React from "react";');
      if (missing.names.length) lines.push(`import { ${missing.names.join(', ')} } from "react";`);
      if (missing.components.length) lines.push(`import { ${missing.components.join(', ')} } from ${JSON.stringify(REACT_COMPONENTS_MODULE)};`);
      return { code: `${lines.join(' ')}${code}`, map: null };
    },
  };

  return [confine, hooks];
}

/**
 * React's hooks, which Mintlify puts in scope of every page and snippet: `useState(0)` works
 * without `import { useState } from 'react'`.
 */
const REACT_HOOKS = [
  'useState', 'useEffect', 'useLayoutEffect', 'useInsertionEffect', 'useMemo', 'useCallback', 'useRef', 'useReducer',
  'useContext', 'useId', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useImperativeHandle',
  'useDebugValue', 'useActionState', 'useOptimistic', 'use',
];

/**
 * Built-in components by the name content code uses (`Tree` of `<Tree.Folder>`), and Mintlify's
 * CodeBlock, which only React code uses (pages write code fences).
 */
const BUILT_IN_NAMES = [...new Set([...COMPONENT_NAMES.map((n) => n.split('.')[0]!), 'CodeBlock'])];

/**
 * The hooks, built-in components (and `React`) a compiled module uses without declaring or
 * importing them.
 */
export function missingReactNames(code: string): { names: string[]; react: boolean; components: string[] } {
  const used = (name: string) => new RegExp(`(?<![\\w$.])${name}\\s*\\(`).test(code);
  const candidates = REACT_HOOKS.filter(used);
  const wantsReact = /(?<![\w$.])React\s*\./.test(code);
  // Compiled JSX names a component as a value (`jsx(Note, …)`); a mention in text is harmless.
  const components = BUILT_IN_NAMES.filter((name) => new RegExp(`(?<![\\w$.'"\`])${name}(?![\\w$'"\`])`).test(code));
  if (!candidates.length && !wantsReact && !components.length) return { names: [], react: false, components: [] };
  let program: Program;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as Program;
  } catch {
    return { names: [], react: false, components: [] }; // not plain JavaScript: the bundler reports it
  }
  const declared = topLevelNames(program);
  return { names: candidates.filter((n) => !declared.has(n)), react: wantsReact && !declared.has('React'), components: components.filter((n) => !declared.has(n)) };
}

function topLevelNames(program: Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (!declaration) continue;
    if (declaration.type === 'ImportDeclaration') declaration.specifiers.forEach((s) => names.add(s.local.name));
    else if (declaration.type === 'VariableDeclaration') declaration.declarations.forEach((d) => patternNames(d.id).forEach((n) => names.add(n)));
    else if ((declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') && declaration.id) names.add(declaration.id.name);
  }
  return names;
}
