/**
 * The docs' inverted index in flat typed arrays: postings per term and field, field lengths and the vocabulary. Our own
 * rather than MiniSearch's: MiniSearch keeps a Map per term and field and builds an object per matching document and
 * term, which costs more than linearly at a few thousand pages; here a query touches each posting once, per-hit work
 * is left to the caller for the best few, and the whole index is a handful of buffers that a worker thread can build
 * and hand over without copying. Scoring is MiniSearch's BM25+ (k 1.2, b 0.7, d 0.5) so rankings stay the same.
 */
import { GrowableInt32Array } from './growable-array.js';

/** An index as built, in a form a worker can post (its buffers are transferred, not copied). */
export type PackedIndex = {
  documentCount: number;
  fieldCount: number;
  /** Every term, by its id. */
  terms: string[];
  /** Term ids in the terms' sort order, for prefix ranges. */
  sortedTermIds: Int32Array;
  /** The postings of term t in field f are documents[offsets[t * fieldCount + f] .. offsets[t * fieldCount + f + 1]]. */
  offsets: Int32Array;
  /** Document ids, ascending within each term and field. */
  documents: Int32Array;
  /** How often the term occurs in that document's field (capped at 65,535). */
  frequencies: Uint16Array;
  /** Distinct terms of each document's field, at documentId * fieldCount + field. */
  fieldLengths: Int32Array;
  averageFieldLengths: Float64Array;
  /** In how many documents each term occurs, in any field. */
  documentFrequency: Int32Array;
  /** 1 for a term of a title, heading or keyword. */
  subject: Uint8Array;
  /** Every word of four letters or more the docs write, and how often, for correcting misspellings. */
  spellingWords: string[];
  spellingUses: Int32Array;
};

/** What indexing needs of one document: its terms per field, the fields naming subjects, its words for spelling. */
export type DocumentTerms = { fields: string[][]; subjectFields: readonly number[]; spelling: string[] };

/** The buffers of an index, to transfer when posting it to another thread. */
export const transferablesOf = (index: PackedIndex): ArrayBuffer[] =>
  [
    index.sortedTermIds,
    index.offsets,
    index.documents,
    index.frequencies,
    index.fieldLengths,
    index.averageFieldLengths,
    index.documentFrequency,
    index.subject,
    index.spellingUses,
  ].map((array) => array.buffer as ArrayBuffer);

/** Builds the index of documents given by id order; `termsOf` analyses one. */
export function packIndex(
  documentCount: number,
  fieldCount: number,
  termsOf: (id: number) => DocumentTerms,
): PackedIndex {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const keys = new GrowableInt32Array();
  const postingDocuments = new GrowableInt32Array();
  const postingFrequencies = new GrowableInt32Array();
  const documentFrequency = new GrowableInt32Array();
  const subject = new Set<number>();
  const spelling = new Map<string, number>();
  const fieldLengths = new Int32Array(documentCount * fieldCount);
  const averageFieldLengths = new Float64Array(fieldCount);
  const idOf = (term: string) => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      termIds.set(term, id);
      terms.push(term);
      documentFrequency.push(0);
    }
    return id;
  };
  for (let document = 0; document < documentCount; document += 1) {
    const { fields, subjectFields, spelling: words } = termsOf(document);
    for (const word of words) spelling.set(word, (spelling.get(word) ?? 0) + 1);
    const inDocument = new Set<number>();
    for (let field = 0; field < fieldCount; field += 1) {
      const fieldTerms = fields[field] ?? [];
      const counts = new Map<string, number>();
      for (const term of fieldTerms) counts.set(term, (counts.get(term) ?? 0) + 1);
      // As MiniSearch counted it: an empty field is one empty token long.
      const length = fieldTerms.length === 0 ? 1 : counts.size;
      fieldLengths[document * fieldCount + field] = length;
      averageFieldLengths[field] = ((averageFieldLengths[field] ?? 0) * document + length) / (document + 1);
      for (const [term, frequency] of counts) {
        if (term === '') continue;
        const id = idOf(term);
        keys.push(id * fieldCount + field);
        postingDocuments.push(document);
        postingFrequencies.push(frequency);
        inDocument.add(id);
        if (subjectFields.includes(field)) subject.add(id);
      }
    }
    for (const id of inDocument) documentFrequency.set(id, documentFrequency.get(id) + 1);
  }
  // Postings grouped by term and field with a counting sort: documents keep their ascending order within a group.
  const offsets = new Int32Array(terms.length * fieldCount + 1);
  for (let posting = 0; posting < keys.length; posting += 1) {
    const key = keys.get(posting) + 1;
    offsets[key] = (offsets[key] ?? 0) + 1;
  }
  for (let key = 1; key < offsets.length; key += 1) offsets[key] = (offsets[key] ?? 0) + (offsets[key - 1] ?? 0);
  const next = offsets.slice(0, -1);
  const documents = new Int32Array(keys.length);
  const frequencies = new Uint16Array(keys.length);
  for (let posting = 0; posting < keys.length; posting += 1) {
    const key = keys.get(posting);
    const at = next[key] ?? 0;
    next[key] = at + 1;
    documents[at] = postingDocuments.get(posting);
    frequencies[at] = Math.min(65_535, postingFrequencies.get(posting));
  }
  const sortedTermIds = Int32Array.from(terms.keys()).sort((first, second) => {
    const a = terms[first] ?? '';
    const b = terms[second] ?? '';
    return a < b ? -1 : a > b ? 1 : 0;
  });
  const subjectFlags = new Uint8Array(terms.length);
  for (const id of subject) subjectFlags[id] = 1;
  return {
    documentCount,
    fieldCount,
    terms,
    sortedTermIds,
    offsets,
    documents,
    frequencies,
    fieldLengths,
    averageFieldLengths,
    documentFrequency: documentFrequency.toInt32Array(),
    subject: subjectFlags,
    spellingWords: [...spelling.keys()],
    spellingUses: Int32Array.from(spelling.values()),
  };
}
