import fp from 'fastify-plugin';
import type { SearchEngine } from './engine.js';
import { requireSearchIndex } from './search-being-built.js';
import { createSemanticIndex, type SemanticIndex } from './semantic-index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one retrieval engine over the current snapshot's sections: /api/search, Dev Copilot, the MCP tools. */
    searchIndex: {
      /** The current snapshot's search; refuses every question while its index is still being built. */
      current(): SearchEngine;
      /** Sections nearest in meaning, when an embedding model is configured. */
      semantic: SemanticIndex['search'] | undefined;
      /** Resolves once the first build's search index is in (or could not be built). */
      ready(): Promise<void>;
    };
  }
}

/** The routes that need the index, as registered. */
const needingTheIndex = ['/api/search', '/api/askAi', '/api/turns'];

/**
 * The search of the site snapshot, with the embeddings of its sections when an embedding model is configured (made
 * once the server is ready, and again for each new build). Until the first index is built, what needs it answers 503
 * with Retry-After at once; the pages are served meanwhile.
 */
export const searchIndexPlugin = fp(
  async (app) => {
    const { site } = app;
    const current = () => site.current().search;
    const embedding = app.model.embedding;
    const semanticIndex =
      embedding === undefined
        ? undefined
        : createSemanticIndex({
            model: embedding,
            currentSections: () => current().sections,
            onError: (message, error) => app.log.warn({ reason: (error as Error).message }, message),
          });
    if (semanticIndex) app.addHook('onReady', () => void semanticIndex.refresh());
    app.addHook('preHandler', requireSearchIndex(current, needingTheIndex));
    app.decorate('searchIndex', { current, semantic: semanticIndex?.search, ready: site.searchReady });
  },
  { name: 'search-index', fastify: '5.x', dependencies: ['site', 'model'], decorators: { fastify: ['site', 'model'] } },
);
