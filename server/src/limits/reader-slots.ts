import type { OutageGuard } from './outage-guard.js';
import type { HeldSlot, SharedLimitStore } from './shared-store.js';

/**
 * How long a slot lasts unless its instance refreshes it: an instance that dies mid-answer gives its readers' slots
 * back within this. Refreshed three times as often, so one slow refresh loses nothing.
 */
export const slotLifetimeMs = 60_000;

/** A running question's place among its reader's; released once, when the answer ends however it ends. */
export type ReaderSlot = { release(): Promise<void> };

/**
 * Running questions per reader counted across instances, in the shared store. This instance counts its own too
 * (RunningAnswers), before it asks here: when the shared store fails or is slow, that count alone decides.
 */
export class SharedReaderSlots {
  private readonly held = new Set<HeldSlot>();
  private refresher: NodeJS.Timeout | undefined;

  constructor(
    private readonly shared: SharedLimitStore,
    private readonly guard: OutageGuard,
    private readonly lifetimeMs = slotLifetimeMs,
  ) {}

  /** One of the reader's `max` slots, or undefined when the reader already runs `max` questions on any instance. */
  async take(reader: string, max: number): Promise<ReaderSlot | undefined> {
    const id = await this.guard.run<string | undefined | null>(
      () => this.shared.takeSlot(reader, max, this.lifetimeMs),
      // null: the store did not answer; the slot is this instance's alone.
      () => null,
      // A slot granted after the answer was given up on is nobody's: give it back at once.
      (lateId) => {
        if (lateId) this.shared.releaseSlot({ reader, id: lateId }).catch(() => {});
      },
    );
    if (id === undefined) return undefined;
    if (id === null) return { release: async () => {} };
    const slot: HeldSlot = { reader, id };
    this.held.add(slot);
    this.refresher ??= setInterval(() => this.refresh(), this.lifetimeMs / 3).unref();
    return { release: () => this.release(slot) };
  }

  /** Gives back every slot still held, e.g. when the server stops. */
  async close() {
    await Promise.all([...this.held].map((slot) => this.release(slot)));
  }

  private async release(slot: HeldSlot) {
    if (!this.held.delete(slot)) return;
    if (this.held.size === 0) {
      clearInterval(this.refresher);
      this.refresher = undefined;
    }
    // When this fails, the slot is no longer refreshed and frees itself within its lifetime.
    await this.guard.run(
      () => this.shared.releaseSlot(slot),
      () => undefined,
    );
  }

  private refresh() {
    void this.guard.run(
      () => this.shared.refreshSlots([...this.held], this.lifetimeMs),
      () => undefined,
    );
  }
}
