/**
 * Recently read session rows, so serving a page's dozens of files does not cost a database round trip each.
 * Sign-out and expiry on this instance drop the entry at once; another instance's sign-out is seen within `ttlMs`.
 */
export function createSessionCache<Row>(options: { ttlMs: number; maxEntries: number }) {
  const entries = new Map<string, { row: Row; readAt: number }>();
  return {
    get(idHash: string, now: number): Row | undefined {
      const entry = entries.get(idHash);
      if (!entry) return undefined;
      if (now - entry.readAt >= options.ttlMs) {
        entries.delete(idHash);
        return undefined;
      }
      return entry.row;
    },
    set(idHash: string, row: Row, now: number) {
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(idHash, { row, readAt: now });
    },
    update(idHash: string, change: (row: Row) => Row) {
      const entry = entries.get(idHash);
      if (entry) entry.row = change(entry.row);
    },
    delete(idHash: string) {
      entries.delete(idHash);
    },
  };
}
