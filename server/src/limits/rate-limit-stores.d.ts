/**
 * @fastify/rate-limit's own stores, which it ships without types (only its plugin is typed): the shared limits use its
 * Redis store as it is and its in-process store as the fallback, so both count exactly as the plugin does alone.
 */
declare module '@fastify/rate-limit/store/LocalStore.js' {
  export default class LocalStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void;
  }
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';
  export default class RedisStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, keyPrefix?: string);
    incr(
      key: string,
      callback: (error: Error | null, result: { current: number; ttl: number } | null) => void,
      timeWindow: number,
      max: number,
    ): void;
  }
}
