import type { DocSection } from './doc-page.js';

/** FNV-1a over a key's UTF-16 code units. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < key.length; at += 1) hash = Math.imul(hash ^ key.charCodeAt(at), 0x01000193);
  return hash >>> 0;
}

/**
 * Sections by a key of their link (`keyOf`), the last section of a key winning, as a Map would hold them. Held as an
 * open-addressing table of section numbers and their keys' hashes, not as a Map of strings: at a hundred times the
 * handbook's pages the Map's 86,000 keys (each a link parsed into a new string) were 15 MB made at once whenever a
 * build was swapped in, and the collector's pauses then grew past the event loop's budget. A hit is confirmed by
 * making its key again from the section's link. (No maintained package keeps a table of numbers over string keys.)
 */
export class SectionsByKey {
  readonly #sections: readonly DocSection[];
  readonly #keyOf: (url: string) => string;
  /** Section number + 1 per slot (0: free). */
  readonly #slots: Uint32Array;
  readonly #hashes: Uint32Array;
  readonly #mask: number;

  constructor(sections: readonly DocSection[], keyOf: (url: string) => string) {
    this.#sections = sections;
    this.#keyOf = keyOf;
    let size = 16;
    while (size < sections.length * 2) size *= 2;
    this.#slots = new Uint32Array(size);
    this.#hashes = new Uint32Array(size);
    this.#mask = size - 1;
  }

  /** Files section `id` under its link's key (made by the caller with `keyOf`, or an equal function). */
  add(id: number, key: string): void {
    const hash = hashOf(key);
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const held = this.#slots[slot] ?? 0;
      if (held === 0 || (this.#hashes[slot] === hash && this.#keyAt(held - 1) === key)) {
        this.#slots[slot] = id + 1;
        this.#hashes[slot] = hash;
        return;
      }
    }
  }

  get(key: string): DocSection | undefined {
    const hash = hashOf(key);
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const held = this.#slots[slot] ?? 0;
      if (held === 0) return undefined;
      if (this.#hashes[slot] === hash && this.#keyAt(held - 1) === key) return this.#sections[held - 1];
    }
  }

  #keyAt(id: number): string | undefined {
    const section = this.#sections[id];
    return section && this.#keyOf(section.url);
  }
}
