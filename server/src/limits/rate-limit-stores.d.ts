/**
 * @fastify/rate-limit's in-process store, which it ships without types (only its plugin is typed): the shared limits
 * use it as the fallback, so an instance counting alone counts exactly as the plugin does.
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
