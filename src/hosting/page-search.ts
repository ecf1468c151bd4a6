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
const MAX_QUERY_WORDS = 16;

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
function stemmerOf(language: string): (word: string) => string {
  const base = language.toLowerCase().split('-')[0] ?? '';
  let stem = stemmers.get(base);
  if (!stem) {
    const algorithm = STEMMERS[base];
    if (algorithm) {
      const stemmer = snowball.newStemmer(algorithm);
      stem = (word) => stemmer.stem(word);
    } else stem = (word) => word;
    stemmers.set(base, stem);
  }
  return stem;
}

/** A word as Pagefind's indexer keeps it: word characters only, lower case. */
const normalize = (token: string) => token.replace(/[^\p{L}\p{N}_]+/gu, '').toLowerCase();

/**
 * The words of a page's Markdown with their weights, as Pagefind reads the rendered page: words
 * split at white space; a heading line's words weigh as that heading; Markdown's own marks
 * (`#`, `>`, `-`, fences) are no words. A word joined by punctuation (`git-absorb`) is indexed
 * whole and as its parts, at one place, as Pagefind does.
 */
function* pageWords(text: string): Generator<{ words: string[]; weight: number }> {
  let fenced = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart();
    if (/^(```|~~~)/.test(trimmed)) {
      fenced = !fenced;
      continue;
    }
    // Folio's own line naming the page's address is no part of the rendered page.
    if (!fenced && /^Source: \S+$/.test(line)) continue;
    const heading = fenced ? undefined : /^(#{1,6})\s/.exec(trimmed);
    const weight = heading ? HEADING_WEIGHTS[heading[1]!.length - 1]! : 1;
    for (const token of (heading ? trimmed.slice(heading[0].length) : line).split(/\s+/)) {
      const whole = normalize(token);
      if (!whole) continue;
      const parts = token.split(/[^\p{L}\p{N}_]+/u).map((p) => p.toLowerCase()).filter(Boolean);
      yield { words: parts.length > 1 ? [whole, ...new Set(parts)] : [whole], weight };
    }
  }
}

/** The index of a site's pages: one pass over each page's words. */
export function buildPageSearchIndex(pages: readonly SearchablePage[]): PageSearchIndex {
  const languages = new Map<string, LanguageIndex>();
  pages.forEach((page, i) => {
    const key = page.language.toLowerCase();
    let index = languages.get(key);
    if (!index) languages.set(key, (index = { stem: stemmerOf(key), pages: [], lengths: new Map(), averageLength: 0, words: new Map(), sorted: [], titles: new Map() }));
    index.pages.push(i);
    const own = new Map<string, Posting>();
    let place = 0;
    for (const { words, weight } of pageWords(page.text)) {
      for (const word of new Set(words.map(index.stem))) {
        let posting = own.get(word);
        if (!posting) own.set(word, (posting = { page: i, places: [], weights: [] }));
        posting.places.push(place);
        posting.weights.push(weight * WEIGHT_UNIT);
      }
      place++;
    }
    index.lengths.set(i, place);
    for (const [word, posting] of own) {
      const list = index.words.get(word);
      if (list) list.push(posting);
      else index.words.set(word, [posting]);
    }
    index.titles.set(i, new Set(page.title.split(/\s+/).map(normalize).filter(Boolean).map(index.stem)));
  });
  for (const index of languages.values()) {
    let total = 0;
    for (const length of index.lengths.values()) total += length;
    index.averageLength = total / Math.max(1, index.pages.length);
    index.sorted = [...index.words.keys()].sort();
  }
  return { languages };
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

/** The index words a query word matches: the words it begins, else the longest word that begins it. */
function extensions(index: LanguageIndex, term: string): string[] {
  const found: string[] = [];
  let lo = 0;
  let hi = index.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.sorted[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < index.sorted.length && index.sorted[i]!.startsWith(term); i++) found.push(index.sorted[i]!);
  if (found.length) return found;
  for (let end = term.length - 1; end > 0; end--) {
    if (index.words.has(term.slice(0, end))) return [term.slice(0, end)];
  }
  return [];
}

const byteLength = (word: string) => Buffer.byteLength(word);

interface Match {
  word: string;
  posting: Posting;
  bonus: number;
  term: number;
}

/** Pages for a query, best first, each with its score: Pagefind's ranking within each language, merged. */
export function searchPages(search: PageSearchIndex, query: string): { page: number; score: number }[] {
  const original = query.split(/\s+/).map(normalize).filter(Boolean).slice(0, MAX_QUERY_WORDS);
  const ranked: { page: number; score: number }[] = [];
  if (!original.length) return ranked;
  for (const index of search.languages.values()) {
    const total = index.pages.length;
    const terms = original.map(index.stem);
    const matches = new Map<number, Match[]>();
    const counts: number[] = [];
    let candidates: Set<number> | undefined;
    terms.forEach((term, t) => {
      const pages = new Set<number>();
      for (const word of extensions(index, term)) {
        const bonus = lengthBonus(Math.abs(byteLength(word) - byteLength(term)) + 1);
        for (const posting of index.words.get(word)!) {
          pages.add(posting.page);
          let list = matches.get(posting.page);
          if (!list) matches.set(posting.page, (list = []));
          list.push({ word, posting, bonus, term: t });
        }
      }
      counts.push(pages.size);
      candidates = candidates ? new Set([...candidates].filter((p) => pages.has(p))) : pages;
    });
    const queryIdf = counts.reduce((sum, count) => sum + idf(total, count), 0);
    for (const page of candidates ?? []) {
      const found = matches.get(page)!;
      // Occurrences grouped by place: a place several query words match (a compound word) counts
      // its smallest weight once per word, as Pagefind does.
      const byPlace = new Map<number, Map<number, { word: string; weight: number }>>();
      for (const match of found) {
        match.posting.places.forEach((place, k) => {
          let terms = byPlace.get(place);
          if (!terms) byPlace.set(place, (terms = new Map()));
          if (!terms.has(match.term)) terms.set(match.term, { word: match.word, weight: match.posting.weights[k]! });
        });
      }
      const weighted = new Map<string, number>();
      for (const terms of byPlace.values()) {
        let least = Infinity;
        for (const { weight } of terms.values()) least = Math.min(least, weight);
        const effective = terms.size > 1 ? Math.min(255, least * terms.size) : least;
        for (const { word } of terms.values()) weighted.set(word, (weighted.get(word) ?? 0) + effective);
      }
      let score = 0;
      for (const [word, weight] of weighted) {
        const match = found.find((m) => m.word === word)!;
        const diacritics = RANKING.diacriticSimilarity > 0 && sameAccents(original[match.term]!, word) ? 1 + RANKING.diacriticSimilarity : 1;
        score += wordScore(weight / WEIGHT_UNIT, index.lengths.get(page)!, index.averageLength, total, counts[match.term]!, match.bonus) * diacritics;
      }
      // The title's boost: the share of the query's IDF that title words carry, squared.
      const title = index.titles.get(page)!;
      const inTitle = new Map<string, number>();
      for (const match of found) if (title.has(match.word)) inTitle.set(match.word, idf(total, counts[match.term]!));
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

/** Pagefind's test of whether a query word and an indexed form agree (one begins the other). */
const sameAccents = (query: string, form: string) => form === query || form.startsWith(query) || query.startsWith(form);
