/// <reference path="./rate-limit-stores.d.ts" />
import { randomUUID } from 'node:crypto';
import type { Redis, Result } from 'ioredis';
import type { Counted, SharedLimitStore } from './shared-store.js';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    takeReaderSlot(key: string, id: string, max: number, lifetimeMs: number): Result<number, Context>;
    refreshReaderSlot(key: string, id: string, lifetimeMs: number): Result<number, Context>;
  }
}

/**
 * A reader's running questions are one sorted set: a member per slot, scored with when it expires by Redis's clock
 * (instances' clocks may differ). Expired members are dropped before counting; the key itself expires with its last
 * slot. The script runs whole, so two instances never both take the last slot.
 */
const takeReaderSlot = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lifetime = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + lifetime, ARGV[1])
redis.call('PEXPIRE', KEYS[1], lifetime)
return 1
`;

/** XX: a slot released (or expired) meanwhile stays gone. */
const refreshReaderSlot = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lifetime = tonumber(ARGV[2])
local kept = redis.call('ZADD', KEYS[1], 'XX', 'CH', now + lifetime, ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], lifetime) end
return kept
`;

/** How long start-up waits for a first connection; past it the server starts, counting alone until Redis answers. */
const firstConnectionMs = 2000;
const commandTimeoutMs = 2000;
/** An idle connection is probed by TCP after this long without traffic. */
const keepAliveDelayMs = 10_000;

export type RedisLimitOptions = {
  url: string;
  /** Every key starts with it, so the limits share a Redis with other data (and tests with each other). */
  keyPrefix: string;
  /** Connection errors, which ioredis reports apart from commands (it reconnects by itself). */
  onError: (error: Error) => void;
};

/**
 * Limits in Redis. ioredis is loaded here, only when REDIS_URL is set: a server without Redis never holds the client
 * in memory. Requests a minute are counted by @fastify/rate-limit's own Redis store.
 */
export async function openRedisLimitStore(options: RedisLimitOptions): Promise<SharedLimitStore> {
  const [{ Redis }, { default: RedisStore }] = await Promise.all([
    import('ioredis'),
    import('@fastify/rate-limit/store/RedisStore.js'),
  ]);
  const client: Redis = new Redis(options.url, {
    // A command while disconnected fails at once rather than waiting in a queue: the limit falls back meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A connection that went silent (no reset, no reply: a flow the network forgot) would otherwise keep every command
    // sent on it pending: the limits stopped waiting long ago, and the commands' memory is let go here.
    commandTimeout: commandTimeoutMs,
    // ...and the connection itself is dropped when a command gets no byte back within that time, so the client
    // reconnects (retryStrategy below) instead of sending every later command into the same dead socket, where each
    // request would pay the limits' fallback wait and the count stayed per instance for good.
    socketTimeout: commandTimeoutMs,
    // An idle connection whose peer vanished is found by TCP itself, before a request has to.
    keepAlive: keepAliveDelayMs,
    connectTimeout: firstConnectionMs,
    // Reconnects for as long as the server runs, at most 2 s apart, so the shared limits come back by themselves.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  client.on('error', options.onError);
  await firstConnection(client);
  const perMinute = new RedisStore(false, false, client, `${options.keyPrefix}minute:`);
  client.defineCommand('takeReaderSlot', { numberOfKeys: 1, lua: takeReaderSlot });
  client.defineCommand('refreshReaderSlot', { numberOfKeys: 1, lua: refreshReaderSlot });
  const slotsOf = (reader: string) => `${options.keyPrefix}running:${reader}`;
  return {
    name: 'Redis',
    count: (key, windowMs, max) =>
      new Promise<Counted>((resolve, reject) =>
        perMinute.incr(key, (error, counted) => (counted ? resolve(counted) : reject(error)), windowMs, max),
      ),
    async takeSlot(reader, max, lifetimeMs) {
      const id = randomUUID();
      return (await client.takeReaderSlot(slotsOf(reader), id, max, lifetimeMs)) === 1 ? id : undefined;
    },
    async refreshSlots(slots, lifetimeMs) {
      if (slots.length === 0) return;
      const pipeline = client.pipeline();
      for (const slot of slots) pipeline.refreshReaderSlot(slotsOf(slot.reader), slot.id, lifetimeMs);
      const failed = (await pipeline.exec())?.find(([error]) => error)?.[0];
      if (failed) throw failed;
    },
    async releaseSlot(slot) {
      await client.zrem(slotsOf(slot.reader), slot.id);
    },
    async close() {
      // QUIT waits for the replies still due; a client that is not connected has none and just stops reconnecting.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/** Connected, or the first attempt failed (the client goes on trying), or it took too long: start-up goes on. */
function firstConnection(client: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, firstConnectionMs);
    client.once('ready', done);
    client.once('error', done);
  });
}
