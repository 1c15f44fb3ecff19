import type { PackedIndex } from './inverted-index.js';
import { byteScale, type LatentSemantics, latentSemanticsOf } from './latent-semantics.js';
import type { QueryTerm } from './query.js';

/** An index with the latent space learned from it (see `withLatentSemantics`), when it has one. */
export type IndexWithMeaning = PackedIndex & { latent?: LatentSemantics };

/** Dimensions kept: chosen on the tuning questions (50, 100, 150 and 200 tried). */
const latentDimensions = 100;

/** The index with the space learned from its own postings, for the engine to rank by meaning as well as by words. */
export function withLatentSemantics(index: PackedIndex, fieldBoosts: readonly number[]): IndexWithMeaning {
  if (index.documentCount < 2 || index.terms.length < 2) return index;
  return { ...index, latent: latentSemanticsOf(index, { dimensions: latentDimensions, fieldBoosts }) };
}

/** The space's buffers, to transfer with the index's own when a worker posts it. */
export const latentTransferables = (index: IndexWithMeaning): ArrayBuffer[] =>
  index.latent
    ? [index.latent.termVectors.buffer as ArrayBuffer, index.latent.sectionVectors.buffer as ArrayBuffer]
    : [];

/**
 * How near a section is to a query in meaning: the cosine of the two in the index's space, the query being its terms'
 * vectors weighted by `weightOf`. Undefined for an index without a space, or a query none of whose terms is in it. Only the sections
 * asked about are compared, so a query costs its matches, not the handbook's size.
 */
export function latentRanker(index: IndexWithMeaning) {
  const latent = index.latent;
  if (!latent) return undefined;
  const { dimensions, termVectors, sectionVectors } = latent;
  const termIds = new Map(index.terms.map((term, id) => [term, id]));
  return (
    terms: readonly QueryTerm[],
    weightOf: (term: QueryTerm) => number,
  ): ((section: number) => number) | undefined => {
    const query = new Float64Array(dimensions);
    for (const term of terms) {
      const id = termIds.get(term.term);
      if (id === undefined) continue;
      const weight = weightOf(term);
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        query[dimension] = (query[dimension] ?? 0) + weight * (termVectors[id * dimensions + dimension] ?? 0);
    }
    let norm = 0;
    for (const value of query) norm += value * value;
    if (norm === 0) return undefined;
    const scale = 1 / (Math.sqrt(norm) * byteScale);
    return (section) => {
      let dot = 0;
      const base = section * dimensions;
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        dot += (query[dimension] ?? 0) * (sectionVectors[base + dimension] ?? 0);
      return dot * scale;
    };
  };
}
