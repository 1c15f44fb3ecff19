/**
 * Latent semantic indexing over the docs' own text: a truncated SVD of the tf-idf term × section matrix, so that a
 * question and a section that say the same thing in different words of the handbook (words the handbook uses
 * together) come near each other. Learned at index time from the index's postings alone, no model and no outside data.
 */
import { CholeskyDecomposition, EigenvalueDecomposition, Matrix } from 'ml-matrix';
import type { PackedIndex } from './inverted-index.js';

/** Section vectors are kept as bytes (a unit vector's parts times 127): a quarter of the memory, the same ranking. */
export const byteScale = 127;

/** The space: a vector per term (to fold a query in) and a unit vector per section, `dimensions` numbers each. */
export type LatentSemantics = {
  dimensions: number;
  /** Term t's vector at [t * dimensions, (t + 1) * dimensions). */
  termVectors: Float32Array;
  /** Section d's unit vector times `byteScale` (zeros for a section without terms), at d * dimensions. */
  sectionVectors: Int8Array;
};

export type LatentSemanticsOptions = {
  /** Dimensions kept. */
  dimensions?: number;
  /** At most this many sections are decomposed (evenly spread); the rest are only folded in, so the cost is bounded. */
  sampleLimit?: number;
  /** Field boosts, in the index's field order. */
  fieldBoosts?: readonly number[];
};

const oversampling = 10;
const powerIterations = 2;

/** A repeatable generator (mulberry32), so that the same docs always give the same space and rankings. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The weighted term × section matrix, term by term: log term frequency times rarity, each section of unit length. */
type SparseTerms = { starts: Int32Array; sections: Int32Array; weights: Float64Array };

function weightedMatrix(index: PackedIndex, fieldBoosts: readonly number[]): SparseTerms {
  const { documentCount, fieldCount, offsets, documents, frequencies } = index;
  const termCount = index.terms.length;
  const starts = new Int32Array(termCount + 1);
  // A term's postings in several fields merge into one entry: never more entries than postings.
  const sections = new Int32Array(documents.length);
  const weights = new Float64Array(documents.length);
  let entries = 0;
  const scratch = new Float64Array(documentCount);
  const touched: number[] = [];
  for (let term = 0; term < termCount; term += 1) {
    starts[term] = entries;
    for (let field = 0; field < fieldCount; field += 1) {
      const boost = fieldBoosts[field] ?? 1;
      for (let at = offsets[term * fieldCount + field] ?? 0; at < (offsets[term * fieldCount + field + 1] ?? 0); at++) {
        const section = documents[at] ?? 0;
        if (scratch[section] === 0) touched.push(section);
        scratch[section] = (scratch[section] ?? 0) + boost * (frequencies[at] ?? 0);
      }
    }
    const frequency = index.documentFrequency[term] ?? 0;
    const rarity = Math.log(1 + (documentCount - frequency + 0.5) / (frequency + 0.5));
    touched.sort((first, second) => first - second);
    for (const section of touched) {
      sections[entries] = section;
      weights[entries] = (1 + Math.log(Math.max(1, scratch[section] ?? 1))) * rarity;
      entries += 1;
      scratch[section] = 0;
    }
    touched.length = 0;
  }
  starts[termCount] = entries;
  const norms = new Float64Array(documentCount);
  for (let at = 0; at < weights.length; at += 1) {
    const section = sections[at] ?? 0;
    norms[section] = (norms[section] ?? 0) + (weights[at] ?? 0) ** 2;
  }
  for (let at = 0; at < weights.length; at += 1) {
    const norm = Math.sqrt(norms[sections[at] ?? 0] ?? 0);
    weights[at] = norm > 0 ? (weights[at] ?? 0) / norm : 0;
  }
  return { starts, sections, weights };
}

/** Y = A X for X (sampled sections × width, row by row): terms × width. `column` maps a section to its row of X. */
function timesDense(matrix: SparseTerms, column: Int32Array, dense: Float64Array, width: number): Float64Array {
  const termCount = matrix.starts.length - 1;
  const result = new Float64Array(termCount * width);
  for (let term = 0; term < termCount; term += 1) {
    for (let at = matrix.starts[term] ?? 0; at < (matrix.starts[term + 1] ?? 0); at += 1) {
      const row = column[matrix.sections[at] ?? 0] ?? -1;
      if (row < 0) continue;
      const weight = matrix.weights[at] ?? 0;
      for (let each = 0; each < width; each += 1) {
        result[term * width + each] = (result[term * width + each] ?? 0) + weight * (dense[row * width + each] ?? 0);
      }
    }
  }
  return result;
}

/** Z = Aᵀ Y for Y (terms × width): one row per section of `rows` (a section's row, or -1 to leave it out). */
function transposedTimes(
  matrix: SparseTerms,
  rows: Int32Array,
  rowCount: number,
  dense: Float64Array,
  width: number,
): Float64Array {
  const result = new Float64Array(rowCount * width);
  const termCount = matrix.starts.length - 1;
  for (let term = 0; term < termCount; term += 1) {
    for (let at = matrix.starts[term] ?? 0; at < (matrix.starts[term + 1] ?? 0); at += 1) {
      const row = rows[matrix.sections[at] ?? 0] ?? -1;
      if (row < 0) continue;
      const weight = matrix.weights[at] ?? 0;
      for (let each = 0; each < width; each += 1) {
        result[row * width + each] = (result[row * width + each] ?? 0) + weight * (dense[term * width + each] ?? 0);
      }
    }
  }
  return result;
}

/** Gᵀ G of a rows × width matrix given row by row: width × width, small. */
function gram(values: Float64Array, rows: number, width: number): Matrix {
  const product = new Float64Array(width * width);
  for (let row = 0; row < rows; row += 1) {
    const base = row * width;
    for (let first = 0; first < width; first += 1) {
      const value = values[base + first] ?? 0;
      if (value === 0) continue;
      for (let second = first; second < width; second += 1)
        product[first * width + second] = (product[first * width + second] ?? 0) + value * (values[base + second] ?? 0);
    }
  }
  const matrix = new Matrix(width, width);
  for (let first = 0; first < width; first += 1)
    for (let second = first; second < width; second += 1) {
      matrix.set(first, second, product[first * width + second] ?? 0);
      matrix.set(second, first, product[first * width + second] ?? 0);
    }
  return matrix;
}

/**
 * An orthonormal basis of the columns of a tall rows × width matrix (row by row), by Cholesky QR (done twice, it is
 * orthonormal to working precision; once is enough between power iterations): only width × width matrices are
 * decomposed, the tall one is only multiplied, so the cost is linear in its rows.
 */
function orthonormal(values: Float64Array, rows: number, width: number, passes = 1): Float64Array {
  let basis = values;
  for (let pass = 0; pass < passes; pass += 1) {
    const product = gram(basis, rows, width);
    let largest = 0;
    for (let each = 0; each < width; each += 1) largest = Math.max(largest, product.get(each, each));
    // A ridge keeps a rank-deficient block (fewer distinct sections than columns) positive definite.
    for (let each = 0; each < width; each += 1)
      product.set(each, each, product.get(each, each) + largest * 1e-10 + 1e-300);
    const lower = Float64Array.from(new CholeskyDecomposition(product).lowerTriangularMatrix.to1DArray());
    const next = new Float64Array(rows * width);
    // Each row r of Q solves L qᵣᵀ = yᵣᵀ: Q = Y L⁻ᵀ.
    for (let row = 0; row < rows; row += 1) {
      const base = row * width;
      for (let column = 0; column < width; column += 1) {
        let sum = basis[base + column] ?? 0;
        const lowerRow = column * width;
        for (let before = 0; before < column; before += 1)
          sum -= (lower[lowerRow + before] ?? 0) * (next[base + before] ?? 0);
        next[base + column] = sum / (lower[lowerRow + column] ?? 1);
      }
    }
    basis = next;
  }
  return basis;
}

/** The space of the index's sections: a randomised truncated SVD (Halko, Martinsson and Tropp) of its tf-idf matrix. */
export function latentSemanticsOf(index: PackedIndex, options: LatentSemanticsOptions = {}): LatentSemantics {
  const termCount = index.terms.length;
  const documentCount = index.documentCount;
  const matrix = weightedMatrix(index, options.fieldBoosts ?? []);
  const sampleLimit = options.sampleLimit ?? 4000;
  const step = Math.max(1, documentCount / sampleLimit);
  const sampleRow = new Int32Array(documentCount).fill(-1);
  let sampled = 0;
  for (let at = 0; Math.floor(at) < documentCount && sampled < sampleLimit; at += step) {
    sampleRow[Math.floor(at)] = sampled;
    sampled += 1;
  }
  const dimensions = Math.max(1, Math.min(options.dimensions ?? 100, sampled - 1, termCount - 1));
  const width = Math.min(dimensions + oversampling, sampled, termCount);
  const random = seeded(0x5eed);
  // Gaussian starting vectors (Box-Muller).
  const start = Float64Array.from(
    { length: sampled * width },
    () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
  );
  let range = orthonormal(timesDense(matrix, sampleRow, start, width), termCount, width);
  for (let iteration = 0; iteration < powerIterations; iteration += 1) {
    const back = orthonormal(transposedTimes(matrix, sampleRow, sampled, range, width), sampled, width);
    // Only the last basis must be orthonormal to working precision: a second pass is for it alone.
    range = orthonormal(
      timesDense(matrix, sampleRow, back, width),
      termCount,
      width,
      iteration === powerIterations - 1 ? 2 : 1,
    );
  }
  // B = Qᵀ A is width × sampled; the eigenvectors of B Bᵀ (width × width) are its left singular vectors Ũ, largest
  // first once sorted, and U = Q Ũ are the term directions.
  const projected = transposedTimes(matrix, sampleRow, sampled, range, width);
  const eigen = new EigenvalueDecomposition(gram(projected, sampled, width), { assumeSymmetric: true });
  const order = eigen.realEigenvalues
    .map((value, position) => ({ value, position }))
    .sort((first, second) => second.value - first.value)
    .map(({ position }) => position);
  const vectors = eigen.eigenvectorMatrix;
  const directions = new Float64Array(width * dimensions);
  for (let each = 0; each < width; each += 1)
    for (let dimension = 0; dimension < dimensions; dimension += 1)
      directions[each * dimensions + dimension] = vectors.get(each, order[dimension] ?? 0);
  const termVectors = new Float32Array(termCount * dimensions);
  for (let term = 0; term < termCount; term += 1) {
    for (let each = 0; each < width; each += 1) {
      const value = range[term * width + each] ?? 0;
      if (value === 0) continue;
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        termVectors[term * dimensions + dimension] =
          (termVectors[term * dimensions + dimension] ?? 0) + value * (directions[each * dimensions + dimension] ?? 0);
    }
  }
  return { dimensions, termVectors, sectionVectors: foldedSections(matrix, documentCount, termVectors, dimensions) };
}

/** Sections folded in at a time: the float scratch stays a few megabytes however many sections there are. */
const foldBlock = 4096;

/** Every section, decomposed or not, folded into the space (Uᵀ a), made unit length and kept as bytes. */
function foldedSections(
  matrix: SparseTerms,
  documentCount: number,
  termVectors: Float32Array,
  dimensions: number,
): Int8Array {
  const sectionVectors = new Int8Array(documentCount * dimensions);
  const terms = Float64Array.from(termVectors);
  const rows = new Int32Array(documentCount);
  for (let first = 0; first < documentCount; first += foldBlock) {
    const count = Math.min(foldBlock, documentCount - first);
    rows.fill(-1);
    for (let row = 0; row < count; row += 1) rows[first + row] = row;
    const folded = transposedTimes(matrix, rows, count, terms, dimensions);
    for (let row = 0; row < count; row += 1) {
      let norm = 0;
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        norm += (folded[row * dimensions + dimension] ?? 0) ** 2;
      const scale = norm > 0 ? byteScale / Math.sqrt(norm) : 0;
      for (let dimension = 0; dimension < dimensions; dimension += 1)
        sectionVectors[(first + row) * dimensions + dimension] = Math.round(
          (folded[row * dimensions + dimension] ?? 0) * scale,
        );
    }
  }
  return sectionVectors;
}
