/**
 * How many requests of one kind each reader has under way on this instance, counted in memory: what such a count
 * bounds is this instance's memory, so neither the shared store nor other instances take part. Each place is given
 * back once, by the function that took it; calling that again does nothing.
 */
export class ReaderCounts {
  private readonly counts = new Map<string, number>();

  count(reader: string): number {
    return this.counts.get(reader) ?? 0;
  }

  /** One more place for `reader`, and the function that gives it back. */
  add(reader: string): () => void {
    this.counts.set(reader, this.count(reader) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.count(reader) - 1;
      if (left > 0) this.counts.set(reader, left);
      else this.counts.delete(reader);
    };
  }

  /** A place for `reader` when they hold fewer than `max`, else undefined. */
  take(reader: string, max: number): (() => void) | undefined {
    return this.count(reader) < max ? this.add(reader) : undefined;
  }
}
