// A content root of a project with code (allow_code): a page that imports a React counter from a
// .jsx snippet (with useState, used without an import, as Mintlify authors write it), a component
// from a relative .jsx file and one defined in an MDX snippet, and defines an `export const`
// component; beside Folio's own Callout and Snippet, and a plain Markdown page.
export const CODE_PAGE = `---
title: Widgets
---

import Tally from '/snippets/tally.jsx';
import { Greeting } from './greeting.jsx';
import Intro, { Gauge } from '/snippets/gauge.mdx';
import { Stamp } from '../components/stamp.tsx';

export const Shelf = ({ items }) => {
  const [first] = useState(items[0]);
  return <ul className="shelf">{items.map((item) => <li key={item}>{item === first ? \`\${item} (first)\` : item}</li>)}</ul>;
};

Counting presses of a button:

<Tally start={3} />

<Shelf items={["quill", "ink", "vellum"]} />

<Greeting name="Ada" />

<Gauge level={7} />

<Stamp label="approved" />

<Intro />

<Callout kind="tip">The built-in components still work beside React ones.</Callout>

<Snippet file="signoff.mdx" vars={{ team: "the docs team" }} />
`;

export const CODE_ROOT: Record<string, string> = {
  'content/index.mdx': CODE_PAGE,
  'content/greeting.jsx': `import { useMemo } from 'react';

export const Greeting = ({ name }) => {
  const text = useMemo(() => \`Good morning, \${name}.\`, [name]);
  return <p className="greeting">{text}</p>;
};
`,
  'snippets/tally.jsx': `export default function Tally({ start = 0 }) {
  const [count, setCount] = useState(start);
  return (
    <button type="button" className="tally" onClick={() => setCount(count + 1)}>
      Pressed {count} times
    </button>
  );
}
`,
  'snippets/gauge.mdx': `export const Gauge = ({ level }) => <meter className="gauge" min="0" max="10" value={level}>{level} of 10</meter>;

Text of the gauge snippet itself.
`,
  // TypeScript, and React itself in scope without an import.
  'components/stamp.tsx': `interface StampProps {
  label: string;
}

export function Stamp({ label }: StampProps) {
  const ref = React.useRef<HTMLElement>(null);
  return <em className="stamp" ref={ref}>{label.toUpperCase()}</em>;
}
`,
  '_snippets/signoff.mdx': 'Written by {team}.\n',
  'content/plain.md': '# Plain page\n\nNo code here, **just Markdown**.\n',
};

/** Where the checker stops the page of CODE_ROOT when code is not enabled: its first import. */
export const FIRST_CODE_LINE = 'content/index.mdx:5:1';
