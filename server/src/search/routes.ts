import type { FastifyInstance } from 'fastify';
import { sendApiError } from '../api-errors.js';
import { requireAllowedViewer } from '../auth/guards.js';
import { describeIssues } from '../copilot/contract.js';
import { type SearchResponse, searchQuerySchema } from './contract.js';
import type { SearchEngine } from './engine.js';
import { around, highlight } from './highlight.js';
import { bestSentence } from './passages.js';

/** Control characters (NUL among them) and lone surrogates say nothing to search by. */
const unsearchable = /[\p{Cc}\p{Cs}]/gu;

/** GET /api/search: the search box and the /search page, on the same engine as Dev Copilot. */
export async function searchRoutes(
  app: FastifyInstance,
  options: { publicOrigin: string; currentEngine: () => SearchEngine },
) {
  app.addHook('onRequest', requireAllowedViewer({ publicOrigin: options.publicOrigin, feature: 'search' }));
  app.get('/api/search', async (request, reply) => {
    const parsed = searchQuerySchema.safeParse(request.query);
    if (!parsed.success) return sendApiError(reply, 400, 'bad_request:search', describeIssues(parsed.error));
    const query = parsed.data.q.replace(unsearchable, ' ').trim();
    const engine = options.currentEngine();
    const hits = query
      ? engine.search(query, { limit: parsed.data.limit, pathPrefix: parsed.data.ctx, asYouType: true })
      : [];
    const response: SearchResponse = {
      query,
      results: hits.map((hit) => ({
        url: hit.url,
        pageTitle: hit.pageTitle,
        heading: hit.heading ?? null,
        breadcrumbs: hit.breadcrumbs,
        title: highlight(hit.heading ?? hit.pageTitle, hit.matchedTerms),
        snippet: highlight(
          around(bestSentence(hit, hit.matchedTerms, engine.termWeight), hit.matchedTerms),
          hit.matchedTerms,
        ),
      })),
    };
    return reply.header('cache-control', 'private, no-cache').send(response);
  });
}
