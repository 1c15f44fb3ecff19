import { type SearchResponse, searchOpenedSchema, searchQuerySchema, searchResponseSchema } from '@acme/contract';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiErrorHandler, sendApiError } from '../api-errors.js';
import { requireReader } from '../auth/guards.js';
import { readerKeyOf } from '../auth/reader-identity.js';
import { registerReaderRateLimit } from '../limits/reader-rate-limit.js';
import { bodilessResponses, errorResponses } from '../response-schemas.js';
import { markSearchResultOpened } from '../store/search-queries.js';
import { createSearchLog, searchedFromHandbookPages } from './search-log.js';
import { searchResults } from './search-results.js';
import { searchableQuery } from './searchable-query.js';

/**
 * GET /api/search: the search box and the /search page, on the same engine as Dev Copilot. Each search made from the
 * handbook's own pages is logged for the maintainers' insights (one row per search typed, credentials masked);
 * POST /api/search/opened marks that a result of it was opened, so searches that found nothing useful show up.
 */
export const searchRoutes = fp(
  async (app) => {
    const { config, searchIndex, limits, store } = app;
    const searchLog = createSearchLog(store.db, (error) => app.log.warn({ err: error }, 'could not log a search'));
    app.addHook('onRequest', requireReader({ publicOrigin: config.publicUrl.origin, feature: 'search' }));
    // After the gate, so it counts per signed-in reader; every keystroke is a search, so the bound is generous.
    await registerReaderRateLimit(app, {
      scope: 'search',
      code: 'rate_limited:search',
      what: 'searches',
      // A reader typing fast sends a search per keystroke; the bound must allow that.
      perMinute: config.searchRequestsPerMinute,
      store: limits.perMinuteStore,
    });
    app.setErrorHandler(apiErrorHandler({ badRequest: 'bad_request:search', internal: 'internal:search' }));
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/api/search',
        { schema: { querystring: searchQuerySchema, response: { 200: searchResponseSchema, ...errorResponses } } },
        async (request, reply) => {
          const { q, limit, ctx } = request.query;
          const query = searchableQuery(q);
          // A space typed after the last word says that word is finished: searched as it is, a typo corrected,
          // rather than as the beginning of longer words.
          const typed = query && /\s$/u.test(q) ? `${query} ` : query;
          const { results, missing, corrected } = query
            ? searchResults(searchIndex.current(), typed, { limit, pathPrefix: ctx })
            : { results: [], missing: [], corrected: [] };
          // The log is of the search box (what readers typed, which results they opened): searches by a token (a
          // script, a coding agent's search_handbook) open nothing and would read as misses; a search another site or
          // a followed link made in the reader's name is not what the reader typed (search-log.ts).
          if (
            query &&
            request.access.state === 'signed-in' &&
            request.access.personalTokenId === undefined &&
            searchedFromHandbookPages(request.headers['sec-fetch-site'])
          ) {
            void searchLog.record(readerKeyOf(request.access.session), query, results.length);
          }
          const response: SearchResponse = { query, results, missing, corrected };
          return reply.header('cache-control', 'private, no-cache').send(response);
        },
      );
    app
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/api/search/opened',
        { schema: { body: searchOpenedSchema, response: bodilessResponses } },
        async (request, reply) => {
          if (request.access.state !== 'signed-in') return sendApiError(reply, 'unauthorized:session');
          const query = searchableQuery(request.body.q);
          await markSearchResultOpened(store.db, { reader: readerKeyOf(request.access.session), query });
          return reply.code(204).send();
        },
      );
  },
  {
    name: 'search-routes',
    fastify: '5.x',
    encapsulate: true,
    decorators: { fastify: ['config', 'searchIndex', 'limits', 'store'] },
  },
);
