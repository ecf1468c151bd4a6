// The search of a site's MCP server (docs/decisions.md#ai-ready-docs): the ranking of the site's
// own search, Pagefind (https://pagefind.app/docs/ranking/), computed over the pages' Markdown.
// Pagefind ranks in the reader's browser with BM25 over stemmed words, heading weights and a boost
// for words of the page's title; this module is the same formula with Pagefind's default ranking
// parameters, over an index made once per live build (one pass over each page's text) so that a
// query costs the postings of its words, never a pass over the site.
import snowball from 'snowball-stemmers';

/** Pagefind's default ranking parameters (https://pagefind.app/docs/ranking/). */
const RANKING = { termSimilarity: 1.0, pageLength: 0.75, termSaturation: 1.4, termFrequency: 1.0, diacriticSimilarity: 0.8, titleWeight: 5.0 };
/** Pagefind stores a word's weight as a byte, 24 per unit of weight (weight 10 is 240). */
const WEIGHT_UNIT = 24;
/** Heading weights h1…h6 as Pagefind gives them by default (https://pagefind.app/docs/weighting/). */
const HEADING_WEIGHTS = [7, 6, 5, 4, 3, 2];
/** Query words used at most: a query of more words searches for its first ones. */
export const MAX_QUERY_WORDS = 16;
/** A query word longer than this is cut to it: no real word is longer, and each costs stemming and lookups. */
export const MAX_QUERY_WORD_CHARS = 64;
/** A query word shorter than this matches only itself: one letter would begin most of the site's words. */
const MIN_PREFIX_CHARS = 3;
/** Index words a query word's prefix matches at most (the first in sorted order). */
const MAX_EXTENSIONS = 50;
/** Postings a query visits at most: past it, the words not yet looked up are left out. */
const MAX_POSTINGS_PER_QUERY = 200_000;

/**
 * Pagefind's stemmers per `<html lang>` (Snowball's algorithms, as its indexer picks them) that
 * the `snowball-stemmers` package has; a language outside this list is indexed unstemmed.
 */
const STEMMERS: Record<string, string> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english', fi: 'finnish', fr: 'french', de: 'german',
  hu: 'hungarian', ga: 'irish', it: 'italian', no: 'norwegian', pt: 'portuguese', ro: 'romanian', ru: 'russian', es: 'spanish', sv: 'swedish', ta: 'tamil', tr: 'turkish',
};

/** One page to index: its Markdown (as the build's `.md` file has it), title and language. */
export interface SearchablePage {
  text: string;
  title: string;
  /** The page's language as `<html lang>` has it (`en`, `pt-BR`), which picks its stemmer. */
  language: string;
}

interface Posting {
  page: number;
  /** Each occurrence: its place among the page's words, and its weight in Pagefind's units. */
  places: number[];
  weights: number[];
  /** The weights added up: the word's weighted count when no other query word shares its places. */
  total: number;
  /** Whether an occurrence is part of a word joined by punctuation (it shares its place with others). */
  shared: boolean;
}

/** The index of the pages of one language: Pagefind keeps one per language and ranks within it. */
interface LanguageIndex {
  stem: (word: string) => string;
  pages: number[];
  /** Each page's word count, by its place in the whole site. */
  lengths: Map<number, number>;
  averageLength: number;
  /** Stemmed word → the pages having it. */
  words: Map<string, Posting[]>;
  /** Sorted keys of `words`, for prefix lookups by binary search. */
  sorted: string[];
  /** Per page: the stemmed words of its title (Pagefind's `title` metadata). */
  titles: Map<number, Set<string>>;
}

export interface PageSearchIndex {
  languages: Map<string, LanguageIndex>;
}

const stemmers = new Map<string, (word: string) => string>();
/** A language's stemmer (no cache: query words are stemmed once each; see `remembering`). */
function stemmerOf(language: string): (word: string) => string {
  const base = language.toLowerCase().split('-')[0] ?? '';
  const algorithm = STEMMERS[base];
  if (!algorithm) return (word) => word;
  let stemmer = stemmers.get(base);
  if (!stemmer) {
    const snowballStemmer = snowball.newStemmer(algorithm);
    stemmers.set(base, (stemmer = (word) => snowballStemmer.stem(word)));
  }
  return stemmer;
}

/**
 * A stemmer remembering each word's stem, for one index build only: a site's words repeat far
 * more than they vary. Query words never go through it, so no query grows what stays in memory.
 */
function remembering(stem: (word: string) => string): (word: string) => string {
  const known = new Map<string, string>();
  return (word) => {
    let stemmed = known.get(word);
    if (stemmed === undefined) known.set(word, (stemmed = stem(word)));
    return stemmed;
  };
}

/** The words a query searches for: normalized as the index's, each once, cut to length and number. */
export function queryWords(query: string): string[] {
  const words = query.split(/\s+/).map((token) => normalize(token).slice(0, MAX_QUERY_WORD_CHARS)).filter(Boolean);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/** A token that is one word as it stands (most are). */
const WORD = /^[\p{L}\p{N}_]+$/u;
/** Punctuation between word characters: a token made of several words. */
const INNER_PUNCTUATION = /[\p{L}\p{N}_][^\p{L}\p{N}_]+[\p{L}\p{N}_]/u;

/** A word as Pagefind's indexer keeps it: word characters only, lower case. */
const normalize = (token: string) => token.replace(/[^\p{L}\p{N}_]+/gu, '').toLowerCase();

/**
 * The words of a page's Markdown with their weights, as Pagefind reads the rendered page: words
 * split at white space; a heading line's words weigh as that heading; Markdown's own marks
 * (`#`, `>`, `-`, fences) are no words. A word joined by punctuation (`git-absorb`) is indexed
 * whole and as its parts (at half its weight), at one place, as Pagefind does.
 */
function pageWords(stem: (word: string) => string, text: string, visit: (word: string, weight: number, parts?: string[]) => void): void {
  let fenced = false;
  for (const line of text.toLowerCase().split('\n')) {
    const trimmed = line.trimStart();
    if (trimmed.startsWith('```') || trimmed.startsWith('~~~')) {
      fenced = !fenced;
      continue;
    }
    // Folio's own line naming the page's address is no part of the rendered page.
    if (!fenced && /^source: \S+$/.test(line)) continue;
    const heading = fenced || trimmed[0] !== '#' ? undefined : /^(#{1,6})\s/.exec(trimmed);
    const weight = heading ? HEADING_WEIGHTS[heading[1]!.length - 1]! : 1;
    for (const token of (heading ? trimmed.slice(heading[0].length) : line).split(/\s+/)) {
      if (WORD.test(token)) {
        visit(stem(token), weight);
        continue;
      }
      const whole = normalize(token);
      if (!whole) continue;
      // A token with punctuation inside is several words: indexed whole, and its parts at half weight.
      const parts = INNER_PUNCTUATION.test(token) ? token.split(/[^\p{L}\p{N}_]+/u).filter(Boolean).map(stem) : [];
      visit(stem(whole), weight, parts.length > 1 ? parts : undefined);
    }
  }
}

/** The index of a site's pages: one pass over each page's words. */
export function buildPageSearchIndex(pages: readonly SearchablePage[]): PageSearchIndex {
  const builder = pageSearchIndexBuilder();
  for (const page of pages) builder.add(page);
  return builder.finish();
}

/**
 * An index made page by page, so that its maker can yield between pages (site-mcp.ts builds a
 * large site's index without holding the event loop) and stop at a budget of words. `words`
 * counts the words indexed so far.
 */
export function pageSearchIndexBuilder(): { add(page: SearchablePage): void; readonly words: number; finish(): PageSearchIndex } {
  const languages = new Map<string, LanguageIndex>();
  const stems = new Map<string, (word: string) => string>();
  let i = 0;
  let words = 0;
  const add = (page: SearchablePage) => {
    const key = page.language.toLowerCase();
    let index = languages.get(key);
    if (!index) {
      const stem = stemmerOf(key);
      stems.set(key, remembering(stem));
      languages.set(key, (index = { stem, pages: [], lengths: new Map(), averageLength: 0, words: new Map(), sorted: [], titles: new Map() }));
    }
    const stem = stems.get(key)!;
    index.pages.push(i);
    const own = new Map<string, Posting>();
    let place = 0;
    const addWord = (word: string, weight: number, shared: boolean) => {
      let posting = own.get(word);
      if (!posting) own.set(word, (posting = { page: i, places: [], weights: [], total: 0, shared: false }));
      // A word and its part can stem alike (`api-api`): one occurrence per place.
      if (posting.places.at(-1) === place) return;
      posting.places.push(place);
      posting.weights.push(weight * WEIGHT_UNIT);
      posting.total += weight * WEIGHT_UNIT;
      posting.shared ||= shared;
    };
    pageWords(stem, page.text, (word, weight, parts) => {
      addWord(word, weight, !!parts);
      for (const part of parts ?? []) addWord(part, weight / 2, true);
      place++;
    });
    index.lengths.set(i, place);
    for (const [word, posting] of own) {
      const list = index.words.get(word);
      if (list) list.push(posting);
      else index.words.set(word, [posting]);
    }
    index.titles.set(i, new Set(page.title.split(/\s+/).map(normalize).filter(Boolean).map(stem)));
    words += place;
    i++;
  };
  const finish = (): PageSearchIndex => {
    for (const index of languages.values()) {
      let total = 0;
      for (const length of index.lengths.values()) total += length;
      index.averageLength = total / Math.max(1, index.pages.length);
      index.sorted = [...index.words.keys()].sort();
    }
    return { languages };
  };
  return {
    add,
    get words() {
      return words;
    },
    finish,
  };
}

/** Pagefind's bonus for a word close in length to the query word (1 when equally long). */
function lengthBonus(differential: number): number {
  const base = Math.exp((-0.5 * differential ** 2) / 4);
  return Math.exp(base * RANKING.termSimilarity) / Math.exp(RANKING.termSimilarity);
}

const idf = (total: number, having: number) => Math.log((total - having + 0.5) / (having + 0.5) + 1);

/** BM25 of one word on one page, interpolated with the raw weighted count as Pagefind does. */
function wordScore(weighted: number, length: number, average: number, total: number, having: number, bonus: number): number {
  const k1 = RANKING.termSaturation;
  const b = RANKING.pageLength;
  const tf = weighted * bonus;
  const bm25 = ((k1 + 1) * tf) / (k1 * (1 - b + b * (length / average)) + tf);
  const raw = Math.min(tf / (average / 5), k1 + 1);
  return idf(total, having) * ((1 - RANKING.termFrequency) * raw + RANKING.termFrequency * bm25);
}

/**
 * The index words a query word matches: the words it begins (at most MAX_EXTENSIONS, and only
 * itself when shorter than MIN_PREFIX_CHARS), else the longest word that begins it.
 */
function extensions(index: LanguageIndex, term: string): string[] {
  if (term.length < MIN_PREFIX_CHARS) return index.words.has(term) ? [term] : [];
  const found: string[] = [];
  let lo = 0;
  let hi = index.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.sorted[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < index.sorted.length && found.length < MAX_EXTENSIONS && index.sorted[i]!.startsWith(term); i++) found.push(index.sorted[i]!);
  if (found.length) return found;
  for (let end = term.length - 1; end > 0; end--) {
    if (index.words.has(term.slice(0, end))) return [term.slice(0, end)];
  }
  return [];
}

const byteLength = (word: string) => Buffer.byteLength(word);

/** An index word a query word matches, with what its score needs (worked out once per query). */
interface Matched {
  word: string;
  /** The query word's place in the query. */
  term: number;
  /** Pagefind's length bonus, and its accent bonus (the query word and this form agree). */
  bonus: number;
  accents: number;
}

interface Match {
  word: Matched;
  posting: Posting;
}

/** Pages for a query, best first, each with its score: Pagefind's ranking within each language, merged. */
export function searchPages(search: PageSearchIndex, query: string): { page: number; score: number }[] {
  const original = queryWords(query);
  const ranked: { page: number; score: number }[] = [];
  if (!original.length) return ranked;
  for (const index of search.languages.values()) {
    const total = index.pages.length;
    const terms = original.map(index.stem);
    const matches = new Map<number, Match[]>();
    const counts: number[] = [];
    let candidates: Set<number> | undefined;
    // The postings looked at for this query: past the budget, the remaining words find nothing
    // new, and the pages having the words looked up so far are ranked (docs/decisions.md#ai-ready-docs).
    let visited = 0;
    let spent = false;
    terms.forEach((term, t) => {
      const pages = new Set<number>();
      for (const word of extensions(index, term)) {
        const postings = index.words.get(word)!;
        if (visited + postings.length > MAX_POSTINGS_PER_QUERY) spent = true;
        if (spent) break;
        visited += postings.length;
        const matched: Matched = {
          word,
          term: t,
          bonus: lengthBonus(Math.abs(byteLength(word) - byteLength(term)) + 1),
          accents: RANKING.diacriticSimilarity > 0 && sameAccents(original[t]!, word) ? 1 + RANKING.diacriticSimilarity : 1,
        };
        for (const posting of postings) {
          pages.add(posting.page);
          let list = matches.get(posting.page);
          if (!list) matches.set(posting.page, (list = []));
          list.push({ word: matched, posting });
        }
      }
      counts.push(pages.size);
      if (spent && !pages.size) return; // a word the budget left unread narrows nothing
      candidates = candidates ? new Set([...candidates].filter((p) => pages.has(p))) : pages;
    });
    const queryIdf = counts.reduce((sum, count) => sum + idf(total, count), 0);
    for (const page of candidates ?? []) {
      const found = matches.get(page)!;
      const length = index.lengths.get(page)!;
      let score = 0;
      for (const [word, weight] of shareless(found) ?? weightedByPlace(found)) {
        score += wordScore(weight / WEIGHT_UNIT, length, index.averageLength, total, counts[word.term]!, word.bonus) * word.accents;
      }
      // The title's boost: the share of the query's IDF that title words carry, squared.
      const title = index.titles.get(page)!;
      const inTitle = new Map<string, number>();
      for (const { word } of found) if (title.has(word.word)) inTitle.set(word.word, idf(total, counts[word.term]!));
      if (inTitle.size && queryIdf > 0) {
        let matched = 0;
        for (const value of inTitle.values()) matched += value;
        const coverage = matched / queryIdf;
        score += RANKING.titleWeight * matched * coverage * coverage;
      }
      ranked.push({ page, score });
    }
  }
  return ranked.sort((a, b) => b.score - a.score || a.page - b.page);
}

/** The weighted count of each matched word when no place is matched twice: each word's own total. */
function shareless(found: Match[]): Map<Matched, number> | undefined {
  const weighted = new Map<Matched, number>();
  const seen = new Set<string>();
  for (const { word, posting } of found) {
    if (posting.shared || seen.has(word.word)) return undefined;
    seen.add(word.word);
    weighted.set(word, posting.total);
  }
  return weighted;
}

/**
 * The weighted count of each matched word, occurrences grouped by place: a place several query
 * words match (a word joined by punctuation, or two query words stemmed alike) counts its
 * smallest weight once per query word, as Pagefind does. A word matched by two query words
 * scores as its first match.
 */
function weightedByPlace(found: Match[]): Map<Matched, number> {
  const byPlace = new Map<number, Map<number, { word: string; weight: number }>>();
  const first = new Map<string, Matched>();
  for (const { word, posting } of found) {
    if (!first.has(word.word)) first.set(word.word, word);
    posting.places.forEach((place, k) => {
      let terms = byPlace.get(place);
      if (!terms) byPlace.set(place, (terms = new Map()));
      if (!terms.has(word.term)) terms.set(word.term, { word: word.word, weight: posting.weights[k]! });
    });
  }
  const weighted = new Map<Matched, number>();
  for (const terms of byPlace.values()) {
    let least = Infinity;
    for (const { weight } of terms.values()) least = Math.min(least, weight);
    const effective = terms.size > 1 ? Math.min(255, least * terms.size) : least;
    for (const { word } of terms.values()) {
      const matched = first.get(word)!;
      weighted.set(matched, (weighted.get(matched) ?? 0) + effective);
    }
  }
  return weighted;
}

/** Pagefind's test of whether a query word and an indexed form agree (one begins the other). */
const sameAccents = (query: string, form: string) => form === query || form.startsWith(query) || query.startsWith(form);
