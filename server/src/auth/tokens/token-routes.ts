import {
  type CreatedToken,
  createdTokenSchema,
  createTokenRequestSchema,
  errorDetails,
  maxTokensPerReader,
  type PersonalToken,
  type TokenList,
  tokenIdParamsSchema,
  tokenListSchema,
} from '@acme/contract';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiErrorHandler, sendApiError } from '../../api-errors.js';
import { bodilessResponses, errorResponses } from '../../response-schemas.js';
import {
  createPersonalTokenWithinLimit,
  deletePersonalToken,
  listPersonalTokens,
  type PersonalTokenRow,
} from '../../store/personal-tokens.js';
import { requireReader } from '../guards.js';
import { identityOf, readerKeyOf } from '../reader-identity.js';
import type { RequestAccess } from '../request-access.js';
import { mintPersonalToken } from './personal-token.js';

const day = 24 * 60 * 60 * 1000;

/** The session behind a request the guard let through. */
function signedInSession(access: RequestAccess) {
  if (access.state !== 'signed-in') throw new Error('The token API was reached without a signed-in reader');
  return access.session;
}

const listed = (row: PersonalTokenRow): PersonalToken => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

/**
 * The reader's personal access tokens: make one (shown this once), list them, revoke one. Session only (a token is
 * never accepted here: token-scope.ts), writes only from our own pages, as every other write.
 */
export const tokenRoutes = fp(
  async (app) => {
    const { db } = app.store;
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.setErrorHandler(apiErrorHandler({ badRequest: 'bad_request:token', internal: 'internal:tokens' }));
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });
    app.addHook('onRequest', requireReader({ publicOrigin: app.config.publicUrl.origin, feature: 'access tokens' }));
    app.addHook('onRequest', async (request, reply) => {
      // Not reachable while token-scope.ts leaves this API out; kept so that widening that list cannot open it.
      if (request.access.state === 'signed-in' && request.access.personalTokenId !== undefined) {
        return sendApiError(reply, 'unauthorized:session', errorDetails.guard.tokensNeedSession);
      }
    });
    const routes = app.withTypeProvider<ZodTypeProvider>();

    routes.get(
      '/api/tokens',
      { schema: { response: { 200: tokenListSchema, ...errorResponses } } },
      async (request): Promise<TokenList> => {
        const reader = readerKeyOf(signedInSession(request.access));
        const rows = await listPersonalTokens(db, { reader, now: new Date() });
        return { tokens: rows.map(listed) };
      },
    );

    routes.post(
      '/api/tokens',
      { schema: { body: createTokenRequestSchema, response: { 201: createdTokenSchema, ...errorResponses } } },
      async (request, reply) => {
        const session = signedInSession(request.access);
        const now = new Date();
        const minted = mintPersonalToken();
        const row = await createPersonalTokenWithinLimit(
          db,
          {
            id: minted.id,
            ...identityOf(session),
            name: request.body.name,
            secretHash: minted.secretHash,
            expiresAt: new Date(now.getTime() + request.body.expiresInDays * day),
          },
          { max: maxTokensPerReader, now, uniqueName: true },
        );
        if (row === 'limit')
          return sendApiError(reply, 'conflict:token_limit', errorDetails.tokenLimit(maxTokensPerReader));
        if (row === 'name') return sendApiError(reply, 'conflict:token_name');
        const created: CreatedToken = {
          id: row.id,
          token: minted.token,
          name: row.name,
          expiresAt: row.expiresAt.toISOString(),
        };
        return reply.code(201).send(created);
      },
    );

    routes.delete(
      '/api/tokens/:id',
      { schema: { params: tokenIdParamsSchema, response: bodilessResponses } },
      async (request, reply) => {
        const reader = readerKeyOf(signedInSession(request.access));
        if (!(await deletePersonalToken(db, { reader, id: request.params.id }))) {
          return sendApiError(reply, 'not_found:token');
        }
        return reply.code(204).send();
      },
    );
  },
  { name: 'token-routes', fastify: '5.x', encapsulate: true, decorators: { fastify: ['config', 'store'] } },
);
