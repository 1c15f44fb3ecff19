import { insightsQuerySchema } from '@acme/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorHandler, sendApiError } from '../api-errors.js';
import type { AccessPolicy } from '../auth/access-policy.js';
import { requireAllowedViewer } from '../auth/guards.js';
import { safeReturnPath } from '../auth/return-path.js';
import { type SendSignInPage, signInStatus } from '../auth/sign-in-response.js';
import { isAllowed } from '../auth/viewer.js';
import { sendServedFile } from '../gate/file-response.js';
import { sendSitePath } from '../gate/site-routes.js';
import type { SiteSnapshot } from '../gate/site-snapshot.js';
import type { Database } from '../store/database.js';
import { readInsights } from './insights.js';
import { isMaintainerRequest } from './maintainers.js';

export type InsightsRouteOptions = {
  publicOrigin: string;
  db: Database;
  currentPolicy: () => AccessPolicy;
  current: () => SiteSnapshot;
  sendSignInPage: SendSignInPage;
};

/** The page's addresses: every spelling the site's own routing would answer for it. */
const pagePaths = ['/insights', '/insights/', '/insights/*', '/insights.html'];

/**
 * The maintainers' insights: the page `/insights` and its data `GET /api/insights?days=7|30|90`. Only a browser
 * session of a maintainer (MAINTAINERS) sees them; any other reader gets what an unknown address gives, a 404, so
 * not even its existence is confirmed.
 */
export async function insightsRoutes(app: FastifyInstance, options: InsightsRouteOptions) {
  await app.register(async (api) => {
    api.addHook('onRequest', requireAllowedViewer({ publicOrigin: options.publicOrigin, feature: 'the handbook' }));
    api.addHook('onRequest', async (request, reply) => {
      if (!isMaintainerRequest(request, options.currentPolicy())) return sendApiError(reply, 'not_found:insights');
    });
    api.setErrorHandler(apiErrorHandler({ badRequest: 'bad_request:insights', internal: 'internal:insights' }));
    api.setValidatorCompiler(validatorCompiler);
    api
      .withTypeProvider<ZodTypeProvider>()
      .get('/api/insights', { schema: { querystring: insightsQuerySchema } }, async (request, reply) => {
        const insights = await readInsights(options.db, {
          days: request.query.days,
          lastDocsBuildAt: new Date(options.current().builtAt),
        });
        return reply.header('cache-control', 'private, no-store').send(insights);
      });
  });

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    if (!isAllowed(request.viewer)) {
      const status = signInStatus(request.viewer);
      return options.sendSignInPage(request, reply, { status, returnPath: safeReturnPath(request.url) });
    }
    const snapshot = options.current();
    if (!isMaintainerRequest(request, options.currentPolicy())) {
      return sendServedFile(request, reply, snapshot.notFoundPage, 404);
    }
    return sendSitePath(request, reply, snapshot);
  };
  for (const url of pagePaths) app.route({ method: ['GET', 'HEAD'], url, handler: sendPage });
}
