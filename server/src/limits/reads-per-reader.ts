/**
 * How many reads of one kind a reader may have running at once on this instance, counted in memory: what it bounds
 * is this instance's memory, so neither the shared store nor other instances take part. Each read is released once,
 * when its response is gone (sent or abandoned).
 */
export class ReadsPerReader {
  private readonly running = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A release for one more read of `reader`, or undefined when the reader already has `max` running. */
  take(reader: string): (() => void) | undefined {
    const count = this.running.get(reader) ?? 0;
    if (count >= this.max) return undefined;
    this.running.set(reader, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(reader) ?? 1) - 1;
      if (left > 0) this.running.set(reader, left);
      else this.running.delete(reader);
    };
  }
}
