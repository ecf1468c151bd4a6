// The `folio` command's commands, their flags and help (content/authoring/cli.mdx): one table that
// both the parser and `--help` read, so an unknown flag's error lists exactly the flags that exist.

export class UsageError extends Error {
  override name = 'UsageError';
}

interface FlagSpec {
  /** A flag with a value (`--port 4321` or `--port=4321`) names it here; a switch has none. */
  value?: string;
  help: string;
  /** Throws a UsageError for a value the flag cannot take. */
  check?: (value: string) => void;
}

/** A `--port` value: a whole number from 1 to 65535. */
function checkPort(value: string): void {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new UsageError(`--port must be a whole number from 1 to 65535 (got ${JSON.stringify(value)})`);
}

interface CommandSpec {
  summary: string;
  flags: Record<string, FlagSpec>;
}

const ALLOW_CODE: FlagSpec = { help: 'run the code pages may contain (React components, scripts), as a project with code allowed does' };

export const COMMANDS = {
  dev: {
    summary: 'preview the docs repository in this folder, reloading as files change',
    flags: { port: { value: 'N', help: 'the port to listen on (default: a free one)', check: checkPort }, 'allow-code': ALLOW_CODE },
  },
  check: {
    summary: 'check every page, snippet and docs.json as a deployment would; exit 1 on errors',
    flags: { json: { help: 'print the results as JSON (file, line, column, severity, code, message)' }, 'allow-code': ALLOW_CODE },
  },
  'broken-links': {
    summary: 'find links to pages that do not exist, redirects that lead nowhere and missing snippets',
    flags: {
      'check-anchors': { help: 'also check #anchors against the headings and ids of the page they point to' },
      'check-external': { help: 'also request every http(s) link and report those that fail' },
    },
  },
  deploy: {
    summary: 'deploy a project through the API (FOLIO_URL, FOLIO_API_KEY); exit with its outcome',
    flags: {
      project: { value: 'slug|id', help: 'the project to deploy (default: the only project the key can see)' },
      wait: { help: 'follow the deployment log until it ends; exit 1 when it fails' },
    },
  },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export interface Invocation {
  command?: CommandName;
  help: boolean;
  flags: Record<string, string | true>;
}

const flagList = (spec: CommandSpec) =>
  Object.entries(spec.flags)
    .map(([name, flag]) => `--${name}${flag.value ? ` <${flag.value}>` : ''}`)
    .concat('--help');

export function usage(command?: CommandName): string {
  if (!command) {
    const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
    return [
      'usage: folio <command> [flags]   (run in your docs repository)',
      '',
      'commands:',
      ...Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary}`),
      '',
      'folio <command> --help shows the flags of a command.',
    ].join('\n');
  }
  const spec: CommandSpec = COMMANDS[command];
  const lines = Object.entries(spec.flags).map(([name, flag]) => [`--${name}${flag.value ? ` <${flag.value}>` : ''}`, flag.help]);
  lines.push(['--help', 'show this help']);
  const width = Math.max(...lines.map(([name]) => name.length));
  return [`usage: folio ${command} [flags]`, '', spec.summary, '', 'flags:', ...lines.map(([name, help]) => `  ${name.padEnd(width)}  ${help}`)].join('\n');
}

/** Reads `folio <command> [flags]`; a UsageError says what is wrong and what is accepted. */
export function parseArgs(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') return { help: true, flags: {} };
  if (!Object.hasOwn(COMMANDS, first)) {
    throw new UsageError(`unknown command ${JSON.stringify(first)}: use one of ${Object.keys(COMMANDS).join(', ')}`);
  }
  const command = first as CommandName;
  const spec: CommandSpec = COMMANDS[command];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--help' || arg === '-h') return { command, help: true, flags: {} };
    const match = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`folio ${command} takes no argument ${JSON.stringify(arg)}: its flags are ${flagList(spec).join(', ')}`);
    const [, name, inline] = match;
    const flag = Object.hasOwn(spec.flags, name) ? spec.flags[name] : undefined;
    if (!flag) throw new UsageError(`unknown flag --${name} for folio ${command}: its flags are ${flagList(spec).join(', ')}`);
    if (flag.value) {
      const value = inline ?? rest[++i];
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) throw new UsageError(`--${name} needs a value: --${name} <${flag.value}>`);
      flag.check?.(value);
      flags[name] = value;
    } else {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value (got --${name}=${inline})`);
      flags[name] = true;
    }
  }
  return { command, help: false, flags };
}

/** The `--port` value (checked by the parser), or undefined when not given. */
export function portFlag(value: string | true | undefined): number | undefined {
  return typeof value === 'string' ? Number(value) : undefined;
}
