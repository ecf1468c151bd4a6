// Generated content for the build benchmarks (bench:build, bench:scale, bench:lighthouse): page texts
// in Mintlify's style, whole content roots, and a Starlight project over the same Markdown pages.
// Everything is written under bench-out/ (git-ignored); nothing of a real repository is copied.
import fs from 'node:fs';
import path from 'node:path';
import { writeSyntheticOpenApi } from './generate-openapi.ts';

/** Writes `text` at `rel` under `root`, making its folders. */
export function writeFileIn(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

const ICONS = ['rocket', 'bolt', 'gear', 'book', 'globe', 'leaf', 'git-branch', 'terminal'];

/**
 * Page `i`'s text: Mintlify's built-in components, about twenty (callouts, cards, steps, tabs, a code
 * group, API fields, accordions, badges, icons), or the same text as plain Markdown without them.
 * `link` is the page the text links to (a site path).
 */
export function componentPageText(i: number, withComponents: boolean, link = '/section-00/page-1/'): string {
  const icon = ICONS[i % ICONS.length];
  const c = (component: string, plain: string) => (withComponents ? component : plain);
  return [
    '---',
    `title: Widget ${i}`,
    `description: Everything about widget ${i}.`,
    '---',
    '',
    `Widget ${i} turns **input** into _output_ with \`code\` and a [link](${link}).`,
    '',
    c(`<Note>Widget ${i} needs version 2 or later.</Note>`, `> Widget ${i} needs version 2 or later.`),
    '',
    '## Overview',
    '',
    c(`<CardGroup cols={2}>\n  <Card title="Install" icon="${icon}" href="${link}">Set widget ${i} up.</Card>\n  <Card title="Configure" icon="sliders" horizontal>Tune widget ${i}.</Card>\n</CardGroup>`, `- [Install](${link}): set widget ${i} up.\n- Configure: tune widget ${i}.`),
    '',
    '## Setup',
    '',
    c(`<Steps>\n  <Step title="Download">Fetch widget ${i}.</Step>\n  <Step title="Unpack" icon="box-open">Unpack it.</Step>\n  <Step title="Run">Start it.</Step>\n</Steps>`, `1. **Download**: fetch widget ${i}.\n2. **Unpack**: unpack it.\n3. **Run**: start it.`),
    '',
    c('<Tabs>\n  <Tab title="macOS" icon="apple">Use the installer.</Tab>\n  <Tab title="Linux" icon="linux">Use the package.</Tab>\n</Tabs>', '**macOS**: use the installer.\n\n**Linux**: use the package.'),
    '',
    c('<CodeGroup>\n', ''),
    '```bash install.sh',
    `curl -fsSL https://example.com/widget-${i}.sh | sh`,
    '```',
    '',
    '```ts main.ts',
    `import { widget } from 'widget-${i}';`,
    'widget.start();',
    '```',
    c('\n</CodeGroup>', ''),
    '',
    '## Parameters',
    '',
    c(`<ParamField path="widget_id" type="string" required>The widget, ${i}.</ParamField>\n\n<ParamField query="limit" type="integer" default={20}>How many.</ParamField>\n\n<ResponseField name="status" type="string">Its state.</ResponseField>`, `- \`widget_id\` (string, required): the widget, ${i}.\n- \`limit\` (integer, default 20): how many.\n- \`status\` (string): its state.`),
    '',
    '## Questions',
    '',
    c(`<AccordionGroup>\n  <Accordion title="Is it fast?" icon="gauge">Yes, <Badge color="green">stable</Badge>.</Accordion>\n  <Accordion title="Is it free?">Yes <Icon icon="${icon}" />.</Accordion>\n</AccordionGroup>`, '**Is it fast?** Yes, stable.\n\n**Is it free?** Yes.'),
    '',
    c('<Warning>Back up before upgrading.</Warning>', '> Back up before upgrading.'),
  ].join('\n');
}

/** Pages per sidebar group in the generated sites. */
const GROUP_SIZE = 25;
const folderOf = (i: number) => `section-${String(Math.floor(i / GROUP_SIZE)).padStart(2, '0')}`;

/**
 * `pages` pages of the same text in Folio's layout (content/section-NN/page-i): plain Markdown (`.md`),
 * or MDX that wraps it in Mintlify's components; `format` 'mdx' without components is what MDX itself costs.
 */
export function writeComponentSite(root: string, pages: number, withComponents: boolean, format: 'md' | 'mdx' = withComponents ? 'mdx' : 'md'): string {
  fs.rmSync(root, { recursive: true, force: true });
  writeFileIn(root, 'docs.json', JSON.stringify({ name: `Bench ${withComponents ? 'components' : 'plain'} ${pages}` }));
  for (let i = 0; i < pages; i++) writeFileIn(root, `content/${folderOf(i)}/page-${i}.${format}`, componentPageText(i, withComponents));
  return root;
}

export const SCALE_LANGUAGES = ['en', 'fr', 'de', 'ja'];
/** OpenAPI operations of the generated Mintlify-like site (one API tab per language and version). */
export const SCALE_OPERATIONS = 40;

/**
 * A site of `pages` pages shaped like a large Mintlify repository: docs.json at the top, navigation of
 * languages × versions, each with a Guides tab of groups and an API reference tab filled from one
 * OpenAPI file; components on four pages of five (plain Markdown on the fifth), a snippet imported on
 * every third. Versions grow with the size (as real sites keep more of them): about 250 pages each.
 * Returns the number of pages the build makes (MDX pages plus generated operation pages).
 */
export async function writeMintlifyScaleSite(root: string, pages: number): Promise<{ root: string; pages: number }> {
  fs.rmSync(root, { recursive: true, force: true });
  const languages = SCALE_LANGUAGES.slice(0, pages >= 1000 ? 4 : 1);
  const versions = Array.from({ length: Math.max(1, Math.round(pages / languages.length / 250)) }, (_, v) => `v${v + 1}`);
  const sections = languages.flatMap((language) => versions.map((version) => ({ language, version, dir: `${language}/${version}` })));
  writeFileIn(root, 'snippets/support.mdx', 'Questions about {product}? <Tip>Write to the {team} team.</Tip>\n');
  writeFileIn(root, 'snippets/limits.mdx', 'export const limit = 600;\n\nAt most 600 requests a minute.\n');
  await writeSyntheticOpenApi(path.join(root, 'api'), { operations: SCALE_OPERATIONS });
  const openapi = 'api/openapi.json';
  const perSection = Math.ceil(pages / sections.length);
  let written = 0;
  const navLanguages = languages.map((language) => ({
    language,
    versions: versions.map((version, v) => {
      const section = sections.find((s) => s.language === language && s.version === version)!;
      const groups: Array<{ group: string; pages: string[] }> = [];
      for (let k = 0; k < perSection && written < pages; k++, written++) {
        const i = written;
        const rel = `${section.dir}/guides/${folderOf(k)}/page-${i}`;
        if (k % GROUP_SIZE === 0) groups.push({ group: `Section ${groups.length + 1}`, pages: [] });
        groups.at(-1)!.pages.push(rel);
        const link = `/${section.dir}/guides/section-00/page-${i - k}/`;
        const mdx = i % 5 !== 4;
        let text = componentPageText(i, mdx, link);
        if (mdx && i % 3 === 0) text += `\n\nimport Support from '/snippets/support.mdx';\n\n<Support product="widget ${i}" team="${language}" />\n`;
        writeFileIn(root, `${rel}.${mdx ? 'mdx' : 'md'}`, text);
      }
      return { version, ...(v === versions.length - 1 ? { default: true } : {}), tabs: [{ tab: 'Guides', groups }, { tab: 'API reference', groups: [{ group: 'Endpoints', openapi: `/${openapi}` }] }] };
    }),
  }));
  writeFileIn(root, 'docs.json', JSON.stringify({ $schema: 'https://mintlify.com/docs.json', theme: 'mint', name: `Scale ${pages}`, colors: { primary: '#0d9373' }, navigation: { languages: navLanguages } }, null, 1));
  // Each section's API tab gets its own operation pages (11,601 HTML files at 10k: 10,000 + 40 × 40 + the 404).
  return { root, pages: pages + sections.length * SCALE_OPERATIONS };
}

/**
 * A Starlight project at `root` (inside the repository, so it resolves Astro and Starlight from
 * node_modules) whose pages the caller writes under src/content/docs/. `sidebar` absent: Starlight
 * builds it from the folders.
 */
export function writeStarlightProject(root: string, options: { title: string; description?: string; siteUrl?: string; sidebar?: unknown }): string {
  fs.rmSync(root, { recursive: true, force: true });
  // Listed as dependencies so Astro bundles Starlight's modules (which import astro: modules)
  // rather than leaving them to Node; they resolve from the repository's node_modules.
  writeFileIn(root, 'package.json', JSON.stringify({ name: 'bench-starlight', private: true, type: 'module', dependencies: { '@astrojs/starlight': '*', astro: '*' } }));
  const starlightOptions = { title: options.title, ...(options.description ? { description: options.description } : {}), ...(options.sidebar ? { sidebar: options.sidebar } : {}) };
  writeFileIn(root, 'astro.config.mjs', `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
export default defineConfig({
  ${options.siteUrl ? `site: ${JSON.stringify(options.siteUrl)},` : ''}
  integrations: [starlight(${JSON.stringify(starlightOptions, null, 2)})],
});
`);
  writeFileIn(root, 'src/content.config.ts', `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';
export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`);
  return root;
}
