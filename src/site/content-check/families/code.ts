// The code family: expressions in braces and import/export statements, the JavaScript MDX would
// run on the build machine. Content may hold literal values, snippet imports and `export const`
// literals (the build inlines them); anything else is code, refused unless the project allows code
// (then imports stay inside the content root: code/imports.ts). Names it declares are what the
// component family knows as the page's own, so it reads the ESM before the walk.
import type { Node as EstreeNode, Program } from 'estree';
import { importedSnippetKey, SNIPPETS_DIR } from '../../snippet-paths.ts';
import { PLACEHOLDER_EXPR } from '../../markdown/snippet-placeholders.ts';
import { isCodeImport, pageImportProblem } from '../../code/imports.ts';
import { boundNames, isLiteral, JS, JsxParser, literalValue, readExpression } from '../literals.ts';
import { ENABLE_CODE, shorten, SKIP_CHILDREN, type CheckFamily, type Located, type MdNode, type NodeCheck, type PageCheck } from '../analysis.ts';
import { urlValueProblem } from './urls.ts';

export function codeFamily(check: PageCheck): CheckFamily {
  const expression: NodeCheck = (node) => {
    checkExpression(node, check);
    return SKIP_CHILDREN;
  };
  return {
    // ESM is top-level only; components it declares may be used above it.
    start(root) {
      for (const node of root.children ?? []) {
        if (node.type !== 'mdxjsEsm') continue;
        check.result.hasEsm = true;
        checkEsm(node, check);
      }
    },
    nodes: {
      mdxjsEsm: () => SKIP_CHILDREN,
      mdxFlowExpression: expression,
      mdxTextExpression: expression,
    },
  };
}

function checkExpression(node: MdNode, check: PageCheck) {
  const { options, result, report } = check;
  const source = String(node.value ?? '');
  const expression = readExpression(source);
  if (expression === null) return;
  if (options.kind === 'snippet') {
    const name = PLACEHOLDER_EXPR.exec(source)?.[1];
    if (name) {
      if (!result.placeholders.includes(name)) result.placeholders.push(name);
      return;
    }
  }
  if (options.allowCode || isLiteral(expression)) return;
  if (expression?.type === 'Identifier' && check.constants.has(expression.name)) return;
  report(node, `expression {${shorten(source)}} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces${options.kind === 'snippet' ? ', and {name} placeholders in snippets' : ''}; anything else is code: ${ENABLE_CODE}`);
}

/**
 * Import and export. Content may import snippets Mintlify's way (`import Intro from
 * '/snippets/intro.mdx'`, `import { version } from '../snippets/values.mdx'`) and define literal
 * values (`export const version = "2.1"`): none of this is code, the build inlines it
 * (markdown/snippet-imports.ts). Anything else is code: refused by default; with code, imports of
 * the project's own files and `export const`.
 */
function checkEsm(node: MdNode, check: PageCheck) {
  const { options, report } = check;
  const source = String(node.value ?? '');
  let program: Program;
  try {
    program = JsxParser.parse(source, { ...JS, locations: true }) as unknown as Program;
  } catch (error) {
    report(node, `this import or export cannot be read: ${(error as Error).message}`);
    return;
  }
  for (const statement of program.body) {
    const at = statementPlace(node, statement);
    if (!options.allowCode) {
      checkContentEsm(statement, at, check);
      continue;
    }
    switch (statement.type) {
      case 'ImportDeclaration':
        checkImportSource(at, String(statement.source.value), check);
        for (const specifier of statement.specifiers) {
          check.declared.add(specifier.local.name);
          if (isCodeImport(String(statement.source.value))) check.hydrated.add(specifier.local.name);
        }
        break;
      case 'ExportNamedDeclaration':
        if (statement.source) checkImportSource(at, String(statement.source.value), check);
        if (statement.declaration) {
          if (statement.declaration.type === 'VariableDeclaration' && statement.declaration.kind === 'const') {
            for (const declarator of statement.declaration.declarations) for (const name of boundNames(declarator.id)) {
              check.declared.add(name);
              check.hydrated.add(name);
            }
          } else report(at, 'only export const … may define something in a page (export function, class, let and var are not allowed)');
        }
        break;
      case 'ExportAllDeclaration':
        checkImportSource(at, String(statement.source.value), check);
        break;
      default:
        report(at, `${statement.type === 'ExportDefaultDeclaration' ? 'export default' : 'this statement'} is not allowed: pages may import files and export const …`);
    }
  }
}

/** One ESM statement of content without code: a snippet import or an `export const` literal, else refused as code. */
function checkContentEsm(statement: Program['body'][number], at: Located, check: PageCheck) {
  const { options, report, result } = check;
  if (statement.type === 'ImportDeclaration') {
    const specifier = String(statement.source.value);
    const key = importedSnippetKey(specifier, options.file, options.snippetsDir ?? SNIPPETS_DIR);
    if (!key) {
      const what = isCodeImport(specifier) ? 'it imports code, run at build time and in readers\' browsers' : `only imports of .md and .mdx snippets under ${options.snippetsDir ?? SNIPPETS_DIR}/ are content`;
      report(at, `import and export are not allowed in Folio content unless they are snippets or literal values (${what}): import … from "${specifier}"; ${ENABLE_CODE}`);
      // Its names are not also reported as unknown components.
      for (const s of statement.specifiers) check.declared.add(s.local.name);
      return;
    }
    const named: string[] = [];
    for (const s of statement.specifiers) {
      if (s.type === 'ImportDefaultSpecifier') check.snippetComponents.add(s.local.name);
      else if (s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name === s.local.name) {
        named.push(s.imported.name);
        check.constants.add(s.local.name);
      } else {
        report(at, `import "${specifier}": only a default import (the snippet, used as <Name />) and named imports of its export const values, without "as", are content; ${ENABLE_CODE}`);
        return;
      }
    }
    result.snippetImports.push({ specifier, key, named, ...check.place(at) });
    return;
  }
  if (statement.type === 'ExportNamedDeclaration' && !statement.source && statement.declaration?.type === 'VariableDeclaration' && statement.declaration.kind === 'const') {
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type === 'Identifier' && isLiteral(declarator.init as EstreeNode | null)) {
        result.exports[declarator.id.name] = literalValue(declarator.init as EstreeNode);
        check.constants.add(declarator.id.name);
        // A snippet's constant is imported by pages into any attribute, a component's href too.
        const problem = check.options.kind === 'snippet' ? urlValueProblem('', '', result.exports[declarator.id.name], true) : undefined;
        if (problem) report(at, `export const ${declarator.id.name} is not allowed: ${problem}`);
      } else {
        const name = declarator.id.type === 'Identifier' ? declarator.id.name : '…';
        report(at, `import and export are not allowed in Folio content unless they are snippets or literal values: export const ${name} is code (export const ${name} = "text" would be content); ${ENABLE_CODE}`);
      }
    }
    return;
  }
  const what = statement.type === 'ExportDefaultDeclaration' ? 'export default' : statement.type.startsWith('Export') ? 'this export' : 'this statement';
  report(at, `import and export are not allowed in Folio content unless they are snippets or literal values: ${what} is code, run at build time; ${ENABLE_CODE}`);
}

/** Where a statement of an ESM block starts in the page (a block holds every line of its imports and exports). */
function statementPlace(node: MdNode, statement: { loc?: { start: { line: number; column: number } } | null }): Located {
  const start = node.position?.start;
  const loc = statement.loc?.start;
  if (!start || !loc) return node;
  return { position: { start: { line: start.line + loc.line - 1, column: loc.line === 1 ? start.column + loc.column : loc.column + 1 } } };
}

/** An import of a project with code: only its own script and content files, and React (see imports.ts). */
function checkImportSource(node: Located, specifier: string, check: PageCheck) {
  const problem = pageImportProblem(specifier, check.options.file);
  if (problem) check.report(node, problem);
}
