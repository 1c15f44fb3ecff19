import { ApiError } from '@acme/contract';
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { DocSection } from './doc-page.js';
import type { SearchEngine } from './engine.js';

/** A handbook's first index takes seconds to build (a minute at most for a very large one): ask again this soon. */
export const searchRetryAfterSeconds = 5;

const unavailable = () => new ApiError('unavailable:search', undefined, searchRetryAfterSeconds);
const beingBuilt = new WeakSet<SearchEngine>();

/**
 * The search of a build whose index is still being built: it has the sections, and every question refuses at once
 * with `unavailable:search` (503, Retry-After) rather than wait for the index.
 */
export function searchBeingBuilt(sections: readonly DocSection[]): SearchEngine {
  const engine: SearchEngine = {
    sections,
    search: () => {
      throw unavailable();
    },
    termWeight: () => {
      throw unavailable();
    },
    meaningWeight: () => {
      throw unavailable();
    },
    queryTerms: () => {
      throw unavailable();
    },
    knows: () => {
      throw unavailable();
    },
    namedFrom: () => {
      throw unavailable();
    },
    sectionAt: () => {
      throw unavailable();
    },
  };
  beingBuilt.add(engine);
  return engine;
}

export const searchIsReady = (engine: SearchEngine) => !beingBuilt.has(engine);

/**
 * Refuses the routes that need the index (`routes`, as registered) while `current` is still being built, before any of
 * their work: a Copilot turn stores nothing it could not answer.
 */
export function requireSearchIndex(current: () => SearchEngine, routes: readonly string[]): preHandlerHookHandler {
  const needing = new Set(routes);
  return function refuseUntilIndexed(request: FastifyRequest, _reply, done) {
    if (needing.has(request.routeOptions.url ?? '') && !searchIsReady(current())) done(unavailable());
    else done();
  };
}
