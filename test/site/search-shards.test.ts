// The search index's shards (docs/decisions.md, "Search index in shards"): which shards a fast
// redeploy indexes again, and what it makes of a previous build's page list that is not one.
import { describe, expect, it } from 'vitest';
import { batchShards, isSearchable, parseShardPages, shardsToReindex } from '../../src/builder/search-shards.ts';

const previous = { shardPages: 2, shards: [['a/index.html', 'b/index.html'], ['c/index.html', 'd/index.html'], ['index.html']] };

describe('search shards', () => {
  it('batches the sorted pages in shards of the given size, one empty shard for a site without searchable pages', () => {
    expect(batchShards(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(batchShards([], 2)).toEqual([[]]);
  });

  it('indexes again only the shards holding a changed page', () => {
    expect(shardsToReindex(previous, 2, [{ file: 'd/index.html', searchable: true }])).toEqual([1]);
    expect(shardsToReindex(previous, 2, [{ file: 'index.html', searchable: true }, { file: 'a/index.html', searchable: true }])).toEqual([0, 2]);
    // A changed file no shard holds that is still not searchable (a hidden page) changes no shard.
    expect(shardsToReindex(previous, 2, [{ file: 'hidden/index.html', searchable: false }])).toEqual([]);
  });

  it('indexes every shard again when the shards no longer fit: another size, a page that became or stopped being searchable', () => {
    expect(shardsToReindex(previous, 3, [{ file: 'd/index.html', searchable: true }])).toBeUndefined();
    expect(shardsToReindex(previous, 2, [{ file: 'hidden/index.html', searchable: true }])).toBeUndefined();
    expect(shardsToReindex(previous, 2, [{ file: 'c/index.html', searchable: false }])).toBeUndefined();
  });

  it('takes a previous page list only when it has the right shape', () => {
    expect(parseShardPages(JSON.stringify(previous))).toEqual(previous);
    for (const bad of ['', 'null', '[]', '{"shardPages":0,"shards":[]}', '{"shardPages":2,"shards":[[1]]}', '{"shardPages":2,"shards":"a"}', '{"shardPages":1.5,"shards":[]}']) {
      expect(parseShardPages(bad), bad).toBeUndefined();
    }
  });

  it('counts as searchable only a page whose markup marks its body, not one that mentions the attribute in its text', () => {
    expect(isSearchable('<article id="content-area" class="mdx-content" data-pagefind-body>x</article>')).toBe(true);
    expect(isSearchable('<p>Use the &lt;div data-pagefind-body&gt; attribute</p><code>data-pagefind-body</code>')).toBe(false);
  });
});
