// Clean Markdown of a page (docs/decisions.md#ai-ready-docs), unit by unit: shapes met in real
// Mintlify repositories (fixtures of our own), checked with the same count of leftover tags that
// `npm run count:md-tags` makes over a build.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { toCleanMarkdown } from '../../src/site/markdown/clean-markdown.ts';
import { leftoverTags } from '../../src/site/markdown/leftover-tags.ts';
import { repoRoot } from '../../src/site/settings.ts';

describe('clean Markdown', () => {
  it('keeps an indented code block in a step as code, even when its lines are indented less than its fence', () => {
    const source = [
      '<Steps>',
      '  <Step title="Call the API">',
      '    Send a request with your key.',
      '    ```bash',
      '    curl --request POST \\',
      '  --url https://api.example.com/v1/widgets \\',
      "  --header 'Authorization: Bearer <key>'",
      '',
      '    echo done',
      '```',
      '',
      '  </Step>',
      '</Steps>',
      '',
    ].join('\n');
    const markdown = toCleanMarkdown(source);
    expect(markdown).toContain("Send a request with your key.\n```bash\ncurl --request POST \\\n--url https://api.example.com/v1/widgets \\\n--header 'Authorization: Bearer <key>'\n\necho done\n```");
    expect(leftoverTags(markdown)).toEqual([]);
  });

  it('keeps a code block that starts its line as written', () => {
    const source = '<Note>\n  Run:\n\n  ```bash title="x"\n  echo <name>\n  ```\n</Note>\n';
    expect(toCleanMarkdown(source)).toBe('> **Note:** Run:\n>\n> ```bash title="x"\n> echo <name>\n> ```\n');
  });
});

describe('the count of leftover tags', () => {
  it('counts tags a Markdown reader takes for HTML, and not code, escaped text or autolinks', () => {
    const markdown = 'A <b>bold</b> word, `<code>` and \\<escaped>, <https://example.com>.\n\n```html\n<div></div>\n```\n\n> ```\n> <Quoted/>\n> ```\n\n<div>\n<Frame>x</Frame>\n</div>\n';
    expect(leftoverTags(markdown).map((t) => `${t.line}:${t.tag}`)).toEqual(['1:<b>', '1:</b>', '11:<div>', '12:<Frame>', '12:</Frame>', '13:</div>']);
  });

  it('is an npm script over a build output: the files with tags, the count per tag and the total', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-md-tags-'));
    fs.mkdirSync(path.join(out, 'guides'));
    fs.mkdirSync(path.join(out, 'pagefind'));
    fs.writeFileSync(path.join(out, 'index.md'), '# Home\n\nClean.\n');
    fs.writeFileSync(path.join(out, 'guides/setup.md'), '# Setup\n\nA list of (array<object>) and <Card>.\n');
    fs.writeFileSync(path.join(out, 'pagefind/notes.md'), '<b>not a page</b>\n');
    const run = promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts/count-md-tags.ts'), out]);
    await expect(run).rejects.toMatchObject({ code: 1, stdout: 'guides/setup.md: 2\nby tag: <Card> 1, <object> 1\n2 Markdown files, 1 with tags, 2 tags left\n' });
    fs.rmSync(path.join(out, 'guides/setup.md'));
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, 'scripts/count-md-tags.ts'), out]);
    expect(stdout).toBe('1 Markdown files, 0 with tags, 0 tags left\n');
    fs.rmSync(out, { recursive: true, force: true });
  });
});
