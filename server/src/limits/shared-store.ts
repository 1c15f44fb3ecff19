/** What one request counted under a key: how many in the window so far, and in how many ms the window ends. */
export type Counted = { current: number; ttl: number };

/** A slot of a running question, as the shared store knows it. */
export type HeldSlot = { reader: string; id: string };

/**
 * Where the limits are kept when every instance of the server must see them (the PostgreSQL database they share).
 * Each call may fail or hang; the limits wrap every one in an OutageGuard.
 */
export type SharedLimitStore = {
  /** Counts one request under `key` in a fixed window of `windowMs` that its first request opens. */
  count(key: string, windowMs: number, max: number): Promise<Counted>;
  /** Takes one of `reader`'s `max` slots for `ttlMs`; its id, or undefined when all are taken. */
  takeSlot(reader: string, max: number, ttlMs: number): Promise<string | undefined>;
  /** Keeps these slots another `ttlMs`: a slot nobody refreshes (its instance died) frees itself. */
  refreshSlots(slots: readonly HeldSlot[], ttlMs: number): Promise<void>;
  releaseSlot(slot: HeldSlot): Promise<void>;
  close(): Promise<void>;
};
