import { insightsQuerySchema, insightsResponseSchema } from '@acme/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiErrorHandler, sendApiError } from '../api-errors.js';
import { requireReader } from '../auth/guards.js';
import { isAllowed } from '../auth/request-access.js';
import { safeReturnPath } from '../auth/return-path.js';
import { signInStatus } from '../auth/sign-in-response.js';
import { insightsPagePaths } from '../browser-only-pages.js';
import { sendServedFile } from '../gate/file-response.js';
import { sendMarkdownTwin, sendSitePath } from '../gate/site-routes.js';
import { errorResponses } from '../response-schemas.js';
import { readInsights } from './insights.js';
import { isMaintainerRequest } from './maintainers.js';

/**
 * The maintainers' insights: the page `/insights` and its data `GET /api/insights?days=7|30|90`. Only a browser
 * session of a maintainer (MAINTAINERS) sees them; any other reader gets what an unknown address gives, a 404, so
 * not even its existence is confirmed.
 */
export const insightsRoutes = fp(
  async (app) => {
    const { config, store, accessPolicy, site, signInPage } = app;
    await app.register(async (api) => {
      api.addHook('onRequest', requireReader({ publicOrigin: config.publicUrl.origin, feature: 'the handbook' }));
      api.addHook('onRequest', async (request, reply) => {
        if (!isMaintainerRequest(request, accessPolicy.current())) return sendApiError(reply, 'not_found:insights');
      });
      api.setErrorHandler(apiErrorHandler({ badRequest: 'bad_request:insights', internal: 'internal:insights' }));
      api.setValidatorCompiler(validatorCompiler);
      api.setSerializerCompiler(serializerCompiler);
      api.withTypeProvider<ZodTypeProvider>().get(
        '/api/insights',
        {
          schema: { querystring: insightsQuerySchema, response: { 200: insightsResponseSchema, ...errorResponses } },
        },
        async (request, reply) => {
          const insights = await readInsights(store.db, {
            days: request.query.days,
            lastDocsBuildAt: new Date(site.current().builtAt),
          });
          return reply.header('cache-control', 'private, no-store').send(insights);
        },
      );
    });

    const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
      if (!isAllowed(request.access)) {
        const status = signInStatus(request.access);
        return signInPage(request, reply, { status, returnPath: safeReturnPath(request.url) });
      }
      const snapshot = site.current();
      // A token (token-scope.ts reads it here) gets what it gets at any page made for a browser alone, whoever holds
      // it, a maintainer too: "No Markdown version", never the page.
      if (request.access.state === 'signed-in' && request.access.personalTokenId !== undefined) {
        return sendMarkdownTwin(request, reply, snapshot);
      }
      if (!isMaintainerRequest(request, accessPolicy.current())) {
        return sendServedFile(request, reply, snapshot.notFoundPage, 404);
      }
      return sendSitePath(request, reply, snapshot);
    };
    for (const url of insightsPagePaths) app.route({ method: ['GET', 'HEAD'], url, handler: sendPage });
  },
  {
    name: 'insights-routes',
    fastify: '5.x',
    encapsulate: true,
    decorators: { fastify: ['config', 'store', 'accessPolicy', 'site', 'signInPage'] },
  },
);
