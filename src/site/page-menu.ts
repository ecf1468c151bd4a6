// The page menu of every docs page (docs.json `contextual`, as Mintlify reads it): "Copy page"
// (the page's Markdown, its .md file, on the clipboard), "View as Markdown", "Open in" links that
// start a conversation in an AI assistant with a prompt naming the page's .md address, the site's
// MCP server (copy its address, install it in Cursor or VS Code) and an author's own links.
// What each entry is and where it leads is decided here, at build time; the page renders the list
// (layouts/parts/PageMenu.astro) and client/page-menu.ts only does the copying
// (docs/decisions.md#page-menu). User docs: content/ai-tools.mdx, content/docs-json.mdx.
import { z } from 'zod';
import { icon, isObject, label, linkHref, type DocsConfigIssue, type Locate } from './config/config-values.ts';

/** The options Folio offers by name, in Mintlify's words. */
export const BUILT_IN_OPTIONS = ['copy', 'view', 'chatgpt', 'claude', 'perplexity', 'mcp', 'cursor', 'vscode'] as const;
export type BuiltInOption = (typeof BUILT_IN_OPTIONS)[number];

/**
 * Without `contextual`: copying the page and the three assistants most readers use, with "View as
 * Markdown". The MCP entries are left to the author: they install a server in the reader's tools,
 * which a site should offer on purpose.
 */
export const DEFAULT_OPTIONS: readonly BuiltInOption[] = ['copy', 'view', 'chatgpt', 'claude', 'perplexity'];

/**
 * A value that is either a string or an object, checked by the schema of its type: a problem inside
 * the object then names its own field (a union would only say that neither form fits).
 */
function byType<S, O>(text: z.ZodType<S>, object: z.ZodType<O>, error: string) {
  return z.unknown().transform((value, ctx): S | O => {
    const schema: z.ZodType<S | O> | undefined = typeof value === 'string' ? text : isObject(value) ? object : undefined;
    const result = schema?.safeParse(value);
    if (result?.success) return result.data;
    for (const issue of result?.error.issues ?? [{ path: [], message: error }]) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
}

const customOption = z.object({
  title: label(80),
  description: z.string().trim().max(200).optional(),
  icon: icon.optional(),
  iconType: z.string().max(40).optional(),
  href: byType(linkHref, z.object({ base: linkHref, query: z.array(z.object({ key: label(100), value: z.string().max(2000) })).max(20).optional() }),
    'must be an http(s) URL such as "https://example.com/ask?q=$page", or {"base": URL, "query": [{"key": …, "value": …}]}'),
});
export type CustomOption = z.infer<typeof customOption>;

export const contextualSchema = z.object({
  options: z
    .array(
      byType(z.string().trim().min(1).max(40), customOption,
        `must be one of ${BUILT_IN_OPTIONS.map((o) => `"${o}"`).join(', ')}, or an option of your own: {"title": …, "description": …, "href": …}`),
    )
    .max(20)
    .optional(),
});
export type ContextualConfig = z.infer<typeof contextualSchema>;

/**
 * Names Folio does not offer (Mintlify adds assistants over time) are left out with a warning,
 * rather than failing a build that Mintlify would run.
 */
export function contextualWarnings(config: { contextual?: ContextualConfig }, locate: Locate): DocsConfigIssue[] {
  const options = config.contextual?.options;
  if (!options) return [];
  const warnings: DocsConfigIssue[] = [];
  options.forEach((option, i) => {
    if (typeof option === 'string' && !(BUILT_IN_OPTIONS as readonly string[]).includes(option)) {
      warnings.push({ ...locate(['contextual', 'options', i]), message: `"${option.slice(0, 40)}" is not an option Folio offers (${BUILT_IN_OPTIONS.join(', ')}): left out of the page menu` });
    }
  });
  config.contextual!.options = options.filter((o) => typeof o !== 'string' || (BUILT_IN_OPTIONS as readonly string[]).includes(o));
  return warnings;
}

/** One entry of a page's menu: a button that copies, or a link. */
export interface PageMenuItem {
  /** The option's name (`copy`, `chatgpt`…), `custom` for an author's own. */
  option: BuiltInOption | 'custom';
  title: string;
  description?: string;
  /** A link's address. */
  href?: string;
  /** A copy button's text: fetched from this address (`fetch`) or the address itself. */
  copy?: { url: string; fetch: boolean };
  icon?: string;
}

export interface PageMenuContext {
  /** Where the page's Markdown is served (`/guides/setup.md`), or undefined when it has none (hidden, noindex). */
  markdownHref: string | undefined;
  /** Makes a site address absolute (the site URL is known for every deployment). */
  absolute: (href: string) => string;
  /** The site's name, for the MCP server's entry in a reader's tools. */
  siteName: string;
}

const ask = (markdownUrl: string) => `Read ${markdownUrl} so I can ask questions about it.`;

const ASSISTANTS: Record<'chatgpt' | 'claude' | 'perplexity', { title: string; url: (prompt: string) => string }> = {
  chatgpt: { title: 'Open in ChatGPT', url: (p) => `https://chatgpt.com/?q=${encodeURIComponent(p)}` },
  claude: { title: 'Open in Claude', url: (p) => `https://claude.ai/new?q=${encodeURIComponent(p)}` },
  perplexity: { title: 'Open in Perplexity', url: (p) => `https://www.perplexity.ai/search?q=${encodeURIComponent(p)}` },
};

/** A name for the site's MCP server in a reader's tools: `acme-docs` for "Acme Docs". */
const serverName = (site: string) => site.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'docs';

function builtIn(option: BuiltInOption, ctx: PageMenuContext): PageMenuItem | undefined {
  const md = ctx.markdownHref;
  const mcp = ctx.absolute('/mcp');
  const name = serverName(ctx.siteName);
  switch (option) {
    case 'copy':
      return md ? { option, title: 'Copy page', description: 'Copy this page as Markdown for AI tools', copy: { url: md, fetch: true } } : undefined;
    case 'view':
      return md ? { option, title: 'View as Markdown', description: 'Open this page as plain Markdown', href: md } : undefined;
    case 'chatgpt':
    case 'claude':
    case 'perplexity':
      return md ? { option, title: ASSISTANTS[option].title, description: 'Ask questions about this page', href: ASSISTANTS[option].url(ask(ctx.absolute(md))) } : undefined;
    case 'mcp':
      return { option, title: 'Copy MCP server URL', description: 'Connect your AI tools to these docs', copy: { url: mcp, fetch: false } };
    case 'cursor':
      // Cursor's install link: https://docs.cursor.com/en/tools/developers (name and a base64 config).
      return { option, title: 'Connect to Cursor', description: 'Install the MCP server in Cursor', href: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(Buffer.from(JSON.stringify({ url: mcp })).toString('base64'))}` };
    case 'vscode':
      // VS Code's install link: https://code.visualstudio.com/docs/copilot/customization/mcp-servers (the server's JSON).
      return { option, title: 'Connect to VS Code', description: 'Install the MCP server in VS Code', href: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, type: 'http', url: mcp }))}` };
  }
}

/**
 * An author's option, its placeholders filled: `$page` (the page's Markdown address: the page
 * itself is too long for an address, and an assistant reads it there), `$path` (that address
 * without `.md`, so `https://docs.example.com$path.md` works as on Mintlify) and `$mcp` (the MCP
 * server's address). A page without Markdown leaves out options that name it.
 */
function custom(option: CustomOption, ctx: PageMenuContext): PageMenuItem | undefined {
  const parts = typeof option.href === 'string' ? [option.href] : [option.href.base, ...(option.href.query ?? []).map((q) => q.value)];
  if (!ctx.markdownHref && parts.some((p) => /\$(?:page|path)/.test(p))) return undefined;
  const md = ctx.markdownHref ?? '';
  const fill = (text: string) =>
    text.replace(/\$(page|path|mcp)/g, (_, name: string) => (name === 'page' ? ctx.absolute(md) : name === 'path' ? md.replace(/\.md$/, '') : ctx.absolute('/mcp')));
  let href: string;
  if (typeof option.href === 'string') href = fill(option.href);
  else {
    const url = fill(option.href.base);
    const query = (option.href.query ?? []).map((q) => `${encodeURIComponent(q.key)}=${encodeURIComponent(fill(q.value))}`).join('&');
    href = query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
  }
  return { option: 'custom', title: option.title, description: option.description, href, icon: option.icon };
}

/** The entries of one page's menu, in the configured order (the first is the menu's button). */
export function pageMenuItems(contextual: ContextualConfig | undefined, ctx: PageMenuContext): PageMenuItem[] {
  const options = contextual?.options ?? DEFAULT_OPTIONS;
  return options.flatMap((option) => {
    const item = typeof option === 'string' ? builtIn(option as BuiltInOption, ctx) : custom(option, ctx);
    return item ? [item] : [];
  });
}
