/**
 * Does PostgreSQL hold the limits every instance shares, at ten times the expected load? Drives the shared limit store
 * (PostgreSQL) and, as the reference, the counts one instance keeps alone in its process (@fastify/rate-limit's own
 * store, slots in a map: what the bench itself costs) with the operations the limits make, open-loop at a fixed rate,
 * and prints latency (from when each operation was due, so a store that falls behind is charged its queue) and how many
 * operations missed the limits' own deadline (the OutageGuard's 300 ms, past which a request is counted per instance).
 *
 * Load model: a reader busy in the handbook makes about 30 counted requests a minute (search-box queries, each counted
 * once, and a question now and then: counted, a slot taken and released). The expected company is 200 such readers at
 * once (100 operations/s); ten times that is 2,000 (1,000/s); 3,000/s shows the headroom. Figures only; never fails.
 * Redis kept these limits until this bench showed PostgreSQL holding them (README, "Several instances").
 */
import { randomUUID } from 'node:crypto';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import { defaultSharedLimitTimeoutMs } from '../server/src/limits/outage-guard';
import { postgresLimitStore } from '../server/src/limits/postgres-store';
import type { HeldSlot, SharedLimitStore } from '../server/src/limits/shared-store';
import { openStore } from '../server/src/store/database';
import { createPostgresTestDatabase } from '../server/test-support/test-databases';

const seconds = Number(process.env.LIMITS_BENCH_SECONDS ?? 10);
const loads = [
  { readers: 200, perSecond: 100 },
  { readers: 2_000, perSecond: 1_000 },
  { readers: 6_000, perSecond: 3_000 },
];
const tickMs = 10;
const minute = 60_000;

type Outcome = { latencies: number[]; late: number; failed: number; done: number };

/** What the limits ask of a store, and all the bench drives. */
type LimitOperations = Pick<SharedLimitStore, 'count' | 'takeSlot' | 'releaseSlot'>;

/** The reference: counts in this process as one instance alone keeps them, slots in a map. */
function inProcessStore(): LimitOperations {
  const counts = new LocalStore(false, false);
  const slots = new Map<string, Set<string>>();
  return {
    count: (key, windowMs, max) =>
      new Promise((resolve, reject) =>
        counts.incr(key, (error, counted) => (error ? reject(error) : resolve(counted)), windowMs, max),
      ),
    async takeSlot(reader, max) {
      const held = slots.get(reader) ?? new Set<string>();
      slots.set(reader, held);
      if (held.size >= max) return undefined;
      const id = randomUUID();
      held.add(id);
      return id;
    },
    async releaseSlot(slot) {
      slots.get(slot.reader)?.delete(slot.id);
    },
  };
}

/** One reader's operation, in the mix the load model gives: 15 searches and one question (3 operations) in 18. */
async function operate(store: LimitOperations, sequence: number, readers: number, held: HeldSlot[]): Promise<void> {
  const reader = `reader-${sequence % readers}`;
  const kind = sequence % 18;
  if (kind < 15) await store.count(`search:${reader}`, minute, 300);
  else if (kind === 15) await store.count(`ask:${reader}`, minute, 20);
  else if (kind === 16) {
    const id = await store.takeSlot(reader, 2, 30_000);
    if (id) held.push({ reader, id });
  } else {
    const slot = held.shift();
    if (slot) await store.releaseSlot(slot);
  }
}

async function drive(store: LimitOperations, load: (typeof loads)[number]): Promise<Outcome> {
  const outcome: Outcome = { latencies: [], late: 0, failed: 0, done: 0 };
  const held: HeldSlot[] = [];
  const pending = new Set<Promise<void>>();
  const started = performance.now();
  const total = load.perSecond * seconds;
  let sequence = 0;
  while (sequence < total) {
    const dueBy = Math.min(total, Math.floor(((performance.now() - started) / 1000) * load.perSecond) + 1);
    for (; sequence < dueBy; sequence++) {
      const due = started + (sequence / load.perSecond) * 1000;
      const run = operate(store, sequence, load.readers, held)
        .then(() => {
          const took = performance.now() - due;
          outcome.latencies.push(took);
          if (took > defaultSharedLimitTimeoutMs) outcome.late++;
        })
        .catch(() => {
          outcome.failed++;
        })
        .finally(() => {
          outcome.done++;
          pending.delete(run);
        });
      pending.add(run);
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  await Promise.all(pending);
  return outcome;
}

function report(name: string, load: (typeof loads)[number], outcome: Outcome, wallMs: number) {
  const sorted = outcome.latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN).toFixed(1);
  console.log(
    `  ${name.padEnd(11)} ${String(load.readers).padStart(5)} readers ${String(load.perSecond).padStart(5)}/s: ` +
      `achieved ${((outcome.done / wallMs) * 1000).toFixed(0)}/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ` +
      `max ${at(1)} ms, over ${defaultSharedLimitTimeoutMs} ms ${outcome.late}, failed ${outcome.failed}`,
  );
}

async function measure(name: string, store: LimitOperations) {
  for (const load of loads) {
    const started = performance.now();
    const outcome = await drive(store, load);
    report(name, load, outcome, performance.now() - started);
  }
}

console.log(`Shared limits: ${seconds} s per load, open loop`);
const database = await createPostgresTestDatabase();
const pg = await openStore(database.options);
try {
  await measure('PostgreSQL', postgresLimitStore(pg.db));
} finally {
  await pg.close();
  await database.drop();
}
await measure('in process', inProcessStore());
