import { LRUCache } from 'lru-cache';

/**
 * `make`, remembered for the texts it was asked about lately (an LRU): search asks about the same few sections again
 * and again, keystroke after keystroke, and analysing or parsing their text anew was most of its work. Keyed by the
 * text itself, so a value is never another text's (a section renamed or rebuilt gets its own). Bounded by a count of
 * entries, or by the characters of their keys.
 */
export function remembered<Value extends object | string>(
  make: (text: string) => Value,
  bound: { entries: number } | { characters: number },
): (text: string) => Value {
  const kept =
    'entries' in bound
      ? new LRUCache<string, Value>({ max: bound.entries })
      : new LRUCache<string, Value>({
          maxSize: bound.characters,
          sizeCalculation: (_, text) => Math.max(1, text.length),
        });
  return (text) => {
    let value = kept.get(text);
    if (value === undefined) {
      value = make(text);
      kept.set(text, value);
    }
    return value;
  };
}
