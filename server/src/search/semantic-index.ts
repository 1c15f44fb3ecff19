import { createHash } from 'node:crypto';
import { type EmbeddingModel, embed, embedMany } from 'ai';
import type { DocSection } from './doc-page.js';
import type { SearchHit } from './engine.js';

/** A section near a query in meaning, with its cosine similarity. */
export type SemanticHit = DocSection & { score: number };

/** Sections per embedding request; providers accept a few hundred short inputs at most. */
const batchSize = 64;
/** A question waits at most this long for its embedding before the answer goes ahead on words alone. */
const queryTimeoutMs = 5000;
/**
 * One batch of the handbook's sections may take this long, however the provider sends it (a byte at a time is not
 * silence): past it the batch fails, and the next try comes after the usual pause, instead of never.
 */
export const batchTimeoutMs = 120_000;

/**
 * An abort after `ms`, by a timer of our own: Node 20 can collect an AbortSignal.timeout that only an AbortSignal.any
 * holds before it fires (read-image-text.ts met it), and the wait is then unbounded.
 */
function deadline(ms: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`No answer within ${ms} ms`, 'TimeoutError')), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

export type SemanticIndex = {
  /** Sections nearest in meaning to the query; empty until the docs are embedded, or when the provider fails. */
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<SemanticHit[]>;
  /** Embeds the current docs (only sections not seen before); resolves when every section has a vector. */
  refresh(): Promise<void>;
  ready(): boolean;
};

/** A section's text hash, computed once per section object: a search must not re-hash the whole handbook. */
const textKeys = new WeakMap<DocSection, string>();
function textKey(section: DocSection): string {
  let key = textKeys.get(section);
  if (key === undefined) {
    key = createHash('sha1')
      .update(`${section.pageTitle}\0${section.heading ?? ''}\0${section.text}`)
      .digest('hex');
    textKeys.set(section, key);
  }
  return key;
}

/** What is embedded for a section: where it sits and what it says, capped so long sections fit any model. */
const embeddedText = (section: DocSection) =>
  `${section.pageTitle}${section.heading ? ` › ${section.heading}` : ''}\n${section.text}`.slice(0, 2000);

function cosine(first: readonly number[], second: readonly number[]): number {
  let dot = 0;
  let firstNorm = 0;
  let secondNorm = 0;
  for (let index = 0; index < first.length; index += 1) {
    const a = first[index] ?? 0;
    const b = second[index] ?? 0;
    dot += a * b;
    firstNorm += a * a;
    secondNorm += b * b;
  }
  return firstNorm && secondNorm ? dot / Math.sqrt(firstNorm * secondNorm) : 0;
}

/**
 * Embeddings of every doc section, kept in memory and keyed by the section's text, so a rebuilt site re-embeds only
 * what changed. Until they are ready, and whenever the provider fails, retrieval runs on words alone.
 */
export function createSemanticIndex(options: {
  model: EmbeddingModel;
  currentSections: () => readonly DocSection[];
  onError: (message: string, error: unknown) => void;
  now?: () => number;
  /** See `batchTimeoutMs`; tests shorten it. */
  batchTimeoutMs?: number;
}): SemanticIndex {
  const now = options.now ?? Date.now;
  const vectors = new Map<string, number[]>();
  let embeddedFor: readonly DocSection[] | undefined;
  let refreshing: Promise<void> | undefined;
  // After a failure, wait before asking the provider again: a minute, doubling to half an hour.
  let failures = 0;
  let retryAt = 0;

  async function embedMissing(sections: readonly DocSection[]) {
    const missing = [...new Map(sections.map((section) => [textKey(section), section])).entries()].filter(
      ([key]) => !vectors.has(key),
    );
    for (let start = 0; start < missing.length; start += batchSize) {
      const batch = missing.slice(start, start + batchSize);
      const timeout = deadline(options.batchTimeoutMs ?? batchTimeoutMs);
      const { embeddings } = await embedMany({
        model: options.model,
        values: batch.map(([, section]) => embeddedText(section)),
        maxParallelCalls: 2,
        maxRetries: 1,
        abortSignal: timeout.signal,
      }).finally(timeout.clear);
      batch.forEach(([key], index) => {
        const vector = embeddings[index];
        if (vector) vectors.set(key, vector);
      });
    }
    embeddedFor = sections;
    // Sections that are gone from the site are forgotten, so a long-running server does not grow.
    const current = new Set(sections.map(textKey));
    for (const key of vectors.keys()) if (!current.has(key)) vectors.delete(key);
  }

  function refresh(): Promise<void> {
    const sections = options.currentSections();
    if (embeddedFor === sections || now() < retryAt) return Promise.resolve();
    if (!refreshing) {
      refreshing = embedMissing(sections)
        .then(() => {
          failures = 0;
          retryAt = 0;
        })
        .catch((error: unknown) => {
          failures += 1;
          retryAt = now() + Math.min(30 * 60_000, 60_000 * 2 ** (failures - 1));
          options.onError('Could not embed the docs; answering on words alone until the next try', error);
        })
        .finally(() => {
          refreshing = undefined;
        });
    }
    return refreshing;
  }

  return {
    refresh,
    ready: () => embeddedFor !== undefined && embeddedFor === options.currentSections(),
    async search(query, { limit, signal }) {
      const sections = options.currentSections();
      if (embeddedFor !== sections) void refresh();
      // Sections embedded so far still count while the rest are on their way (or the provider is down).
      if (vectors.size === 0) return [];
      const timeout = deadline(queryTimeoutMs);
      try {
        const { embedding } = await embed({
          model: options.model,
          value: query,
          maxRetries: 0,
          abortSignal: signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal,
        }).finally(timeout.clear);
        return sections
          .flatMap((section) => {
            const vector = vectors.get(textKey(section));
            return vector ? [{ ...section, score: cosine(embedding, vector) }] : [];
          })
          .sort((first, second) => second.score - first.score)
          .slice(0, limit);
      } catch (error) {
        if (!signal?.aborted) options.onError('Could not embed the question; answering on words alone', error);
        return [];
      }
    },
  };
}

/**
 * The word ranking reordered by reciprocal rank fusion with the meaning ranking: each adds 1 / (60 + rank) for a
 * section, which needs no common score scale (BM25 and cosine similarity share none). A section found by meaning alone
 * joins with no word evidence, so it never makes a question count as covered.
 */
export function reorderByMeaning(words: readonly SearchHit[], meaning: readonly SemanticHit[]): SearchHit[] {
  if (meaning.length === 0) return [...words];
  const fused = new Map<string, { hit: SearchHit; score: number }>();
  const add = (hit: SearchHit, rank: number) => {
    const entry = fused.get(hit.id) ?? { hit, score: 0 };
    entry.score += 1 / (60 + rank + 1);
    fused.set(hit.id, entry);
  };
  words.forEach(add);
  meaning.forEach((section, rank) => {
    const known = fused.get(section.id)?.hit;
    add(known ?? { ...section, matchedTerms: new Set(), matchedQueryTerms: new Set(), coverage: 0 }, rank);
  });
  return [...fused.values()].sort((first, second) => second.score - first.score).map(({ hit }) => hit);
}
