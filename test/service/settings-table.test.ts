// The one table of settings (content/configuration.mdx) and the settings schema (src/service/config.ts)
// cannot drift apart: every setting the server reads has a row, every row is a setting, and a default
// written in the table is what the server uses when the variable is unset.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsShape } from '../../src/service/config.ts';

interface Row {
  name: string;
  defaultCell: string;
}

/** The rows of the first `| Variable | Default | Meaning |` table of the configuration page. */
function settingsRows(): Row[] {
  const page = fs.readFileSync('content/configuration.mdx', 'utf8');
  const start = page.indexOf('| Variable | Default | Meaning |');
  expect(start).toBeGreaterThan(-1);
  const lines = page.slice(start).split('\n');
  const table = lines.slice(2, lines.findIndex((line, i) => i > 0 && !line.startsWith('|')));
  return table.map((line) => {
    const [name, defaultCell] = line.split(' | ').map((cell) => cell.replace(/^\|\s*/, '').trim());
    return { name: name!.replace(/^`|`$/g, ''), defaultCell: defaultCell! };
  });
}

const schemaOf = (name: string) => settingsShape[name as keyof typeof settingsShape];

describe('the settings table of content/configuration.mdx', () => {
  it('has exactly one row per setting of the schema', () => {
    const names = settingsRows().map((row) => row.name);
    expect(new Set(names).size, 'a setting has two rows').toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(settingsShape).sort());
  });

  it('gives the default the server uses, and no default where the server has none', () => {
    for (const { name, defaultCell } of settingsRows()) {
      const schema = schemaOf(name);
      const unset = schema.parse(undefined);
      const code = /^`([^`]+)`$/.exec(defaultCell);
      if (code) {
        // The documented default, read as the variable would be, is the value used when it is unset.
        expect(schema.parse(code[1]), `${name}: default ${defaultCell}`).toEqual(unset);
      } else {
        // Words (`(none)`, `the listening port`, `the system's resolver`): nothing, or an empty list.
        expect(unset === undefined || (Array.isArray(unset) && unset.length === 0), `${name}: the schema has a default, the table says ${defaultCell}`).toBe(true);
      }
    }
  });
});
