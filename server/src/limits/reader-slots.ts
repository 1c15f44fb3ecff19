import type { OutageGuard } from './outage-guard.js';
import type { HeldSlot, SharedLimitStore } from './shared-store.js';

/**
 * How long a slot lasts unless its instance refreshes it: an instance that dies mid-answer gives its readers' slots
 * back within this. Refreshed three times as often, so one slow refresh loses nothing.
 */
export const slotLifetimeMs = 60_000;

/** The first pause before a failed release is tried again; each next one doubles, up to the longest. */
const releaseRetryFirstPauseMs = 500;
const releaseRetryLongestPauseMs = 5000;

/** A running question's place among its reader's; released once, when the answer ends however it ends. */
export type ReaderSlot = { release(): Promise<void> };

/**
 * Running questions per reader counted across instances, in the shared store. This instance counts its own too
 * (RunningAnswers), before it asks here: when the shared store fails or is slow, that count alone decides.
 */
export class SharedReaderSlots {
  private readonly held = new Set<HeldSlot>();
  private refresher: NodeJS.Timeout | undefined;
  /** Releases waiting to be tried again; dropped at close. */
  private readonly retrying = new Set<NodeJS.Timeout>();
  private closed = false;

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
    this.closed = true;
    for (const timer of this.retrying) clearTimeout(timer);
    this.retrying.clear();
    await Promise.all([...this.held].map((slot) => this.release(slot)));
  }

  private async release(slot: HeldSlot) {
    if (!this.held.delete(slot)) return;
    if (this.held.size === 0) {
      clearInterval(this.refresher);
      this.refresher = undefined;
    }
    // Awaited once (bounded by the guard), so a reader who asks again the moment an answer ends finds the slot free.
    // When the store fails (an answer that failed in an outage ends in it), the slot is tried again in the background
    // until the store is back: left alone it would count against its reader until it expired, and they would be
    // refused 429 for a question that has ended. No longer than its lifetime: by then it has freed itself.
    if (!(await this.giveBack(slot))) this.releaseLater(slot, Date.now() + this.lifetimeMs, releaseRetryFirstPauseMs);
  }

  /** True once the store has the slot back; false when it failed or did not answer in time. */
  private giveBack(slot: HeldSlot): Promise<boolean> {
    return this.guard.run(
      () => this.shared.releaseSlot(slot).then(() => true),
      () => false,
    );
  }

  private releaseLater(slot: HeldSlot, giveUpAt: number, pauseMs: number) {
    if (this.closed || Date.now() + pauseMs > giveUpAt) return;
    const timer = setTimeout(() => {
      this.retrying.delete(timer);
      if (this.closed) return;
      void this.giveBack(slot).then((given) => {
        const next = Math.min(pauseMs * 2, releaseRetryLongestPauseMs);
        if (!given) this.releaseLater(slot, giveUpAt, next);
      });
    }, pauseMs).unref();
    this.retrying.add(timer);
  }

  private refresh() {
    void this.guard.run(
      () => this.shared.refreshSlots([...this.held], this.lifetimeMs),
      () => undefined,
    );
  }
}
