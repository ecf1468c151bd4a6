// The MCP search's own bounds (docs/decisions.md#ai-ready-docs), on the pure functions of
// page-search.ts: a query's words are deduplicated, cut in length and number; a short word is no
// prefix of the whole site; a prefix expands to a bounded number of words; and no query leaves
// anything behind in memory (the stems of query words are not kept).
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildPageSearchIndex, MAX_QUERY_WORD_CHARS, MAX_QUERY_WORDS, queryWords, searchPages } from '../../src/hosting/page-search.ts';

const page = (text: string, title = 'Page') => ({ text, title, language: 'en' });

describe('the search of a site MCP server', () => {
  it('searches each query word once, cut to its length and the number of words', () => {
    expect(queryWords('Gizmo gizmo GIZMO, sprocket')).toEqual(['gizmo', 'sprocket']);
    expect(queryWords('x'.repeat(10_000))).toEqual(['x'.repeat(MAX_QUERY_WORD_CHARS)]);
    expect(queryWords(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '))).toHaveLength(MAX_QUERY_WORDS);
    const index = buildPageSearchIndex([page('The gizmo turns the gizmo wheel.'), page('A gizmo.'), page('Nothing here.')]);
    expect(searchPages(index, 'gizmo gizmo gizmo')).toEqual(searchPages(index, 'gizmo'));
  });

  it('matches a word of one or two letters only as itself, and a prefix to at most 50 words', () => {
    const index = buildPageSearchIndex([page('The sprocket turns.'), page('An s in a row.'), ...Array.from({ length: 60 }, (_, i) => page(`catalog${String(i).padStart(2, '0')} entry.`))]);
    expect(searchPages(index, 's').map((r) => r.page)).toEqual([1]);
    expect(searchPages(index, 'spr').map((r) => r.page)).toEqual([0]);
    expect(searchPages(index, 'catalog')).toHaveLength(50);
  });

  it('keeps nothing of the queries it answers', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const index = buildPageSearchIndex([page('The gizmo turns the sprocket.')]);
    const long = (i: number) => `${'long'.repeat(2000)}${i}`;
    searchPages(index, long(-1));
    gc();
    const before = process.memoryUsage().heapUsed;
    // 500 queries of 8 KB words: each word and its stem, if kept, would hold 8 MB or more.
    for (let i = 0; i < 500; i++) searchPages(index, long(i));
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(2 * 1024 * 1024);
  });
});
