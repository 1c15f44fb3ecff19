import { errorDetails } from '@acme/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withoutQuery } from '../../access-log.js';
import { sendApiError } from '../../api-errors.js';
import type { Database } from '../../store/database.js';
import { findPersonalToken, type PersonalTokenWithAccount, touchPersonalToken } from '../../store/personal-tokens.js';
import type { AccessPolicy } from '../access-policy.js';
import { decideCredential, withCurrentAddress } from '../account-access.js';
import { accessTokenPrefix } from '../oauth/oauth-tokens.js';
import type { RequestAccess } from '../request-access.js';
import type { BearerFailureGuard } from './bearer-failures.js';
import { parsePersonalToken, parseToken, secretMatches } from './personal-token.js';
import { acceptsApplicationToken, acceptsPersonalToken, hasTokenInAddress } from './token-scope.js';

/** A browser's navigation asks for a page: it is shown the sign-in page, whatever a proxy put in `Authorization`. */
const acceptsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/** A token's last use is written at most once a minute: the list shows when it was used, not every request. */
const lastUsedThrottleMs = 60_000;

export type TokenAccessOptions = {
  db: Database;
  /** Addresses refused before any read once their credentials keep naming no live token. */
  failures: BearerFailureGuard;
  currentPolicy: () => AccessPolicy;
  /** `<PUBLIC_URL>/.well-known/oauth-protected-resource`: where a refused client learns how to get a token. */
  resourceMetadataUrl: string;
  now?: () => Date;
};

/** A bearer credential refused: 401 with the RFC 6750 challenge (and RFC 9728's pointer), never what was sent. */
export function refuseBearer(
  reply: FastifyReply,
  resourceMetadataUrl: string,
  error?: 'invalid_token' | 'invalid_request',
) {
  const challenge = [`Bearer resource_metadata="${resourceMetadataUrl}"`, error && `error="${error}"`];
  reply.header('www-authenticate', challenge.filter(Boolean).join(', '));
  // Without an error the request carried no token at all: a client set up without its header is told that, rather
  // than sent off to make new tokens; one that put its token in the address is told why it was not read.
  if (error) return sendApiError(reply, 'unauthorized:token');
  const detail = hasTokenInAddress(reply.request.url) ? errorDetails.guard.tokenInAddress : undefined;
  return sendApiError(reply, 'unauthorized:token_missing', detail);
}

/**
 * A token's access: its reader's identity as a session would hold it (the account's current address), the access
 * policy applied now to that address and to the one the token was made with.
 */
function accessOfToken(row: PersonalTokenWithAccount, policy: AccessPolicy): RequestAccess {
  const decision = decideCredential(policy, row);
  const account = withCurrentAddress(row);
  const session = {
    idHash: `personal-token:${row.id}`,
    issuer: account.issuer,
    subject: account.subject,
    email: account.email,
    emailVerified: account.emailVerified,
    hostedDomain: account.hostedDomain,
    name: null,
    createdAt: row.createdAt,
    lastSeenAt: row.lastUsedAt ?? row.createdAt,
    expiresAt: row.expiresAt,
  };
  return { state: 'signed-in', session, idHash: session.idHash, decision, personalTokenId: row.id };
}

/**
 * The row a bearer credential names, when its secret matches and it is live at `at`: a personal token (`acme_pat_`)
 * or the access token of a grant made through OAuth (`acme_oat_`, auth/oauth/), each only for a row of its own kind.
 */
/** A bearer credential read from its text alone: its token id and secret, and whether it is a personal token. */
function parseBearer(credential: string) {
  const personal = parsePersonalToken(credential);
  const parsed = personal ?? parseToken(accessTokenPrefix, credential);
  return parsed && { ...parsed, personal: personal !== undefined };
}

async function rowOfBearer(
  db: Database,
  parsed: ReturnType<typeof parseBearer>,
  at: Date,
): Promise<PersonalTokenWithAccount | undefined> {
  const row = parsed && (await findPersonalToken(db, { id: parsed.id }));
  if (!parsed || !row || !secretMatches(parsed.secret, row.secretHash) || row.expiresAt <= at) return undefined;
  if (parsed.personal) return row.clientId === null ? row : undefined;
  return row.clientId !== null && row.accessExpiresAt !== null && row.accessExpiresAt > at ? row : undefined;
}

/**
 * On the routes that accept a personal token (token-scope.ts), an `Authorization` header decides who is asking: a
 * valid token's reader, re-checked against the access policy, or a 401/403 answered here. The row is read from the
 * store on every request, so a revocation or expiry on any instance holds on the next request everywhere; nothing is
 * cached. Registered after the session hook; the token is never logged or echoed.
 */
export function registerTokenAccess(app: FastifyInstance, options: TokenAccessOptions) {
  const now = options.now ?? (() => new Date());
  app.addHook('onRequest', async function acceptPersonalToken(request: FastifyRequest, reply: FastifyReply) {
    const authorization = request.headers.authorization;
    if (authorization === undefined) return;
    const [scheme, credential = '', ...rest] = authorization.trim().split(/\s+/);
    const { takesToken } = app.site.current();
    if (!acceptsPersonalToken(request.method, request.routeOptions.url, withoutQuery(request.url), takesToken)) {
      // A handbook token sent to write (a chat, a rating, a token): no session stands behind the request, and "sign in"
      // would be no advice to the script that sent it. Nothing is read: it is refused for what it asks.
      const write = !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
      const api = request.routeOptions.url?.startsWith('/api/') === true;
      if (api && write && request.access.state === 'signed-out' && parseBearer(credential)) {
        return sendApiError(reply, 'forbidden:token_read_only');
      }
      return;
    }
    const bearer = scheme?.toLowerCase() === 'bearer' && credential !== '' && rest.length === 0;
    const parsed = bearer ? parseBearer(credential) : undefined;
    if (!parsed) {
      // Not a credential the handbook issued: another scheme (a staging gate's Basic), or a proxy's own bearer token.
      // RFC 6750 lets a resource server ignore them, and a reader's session, or the sign-in page a browser asks for,
      // still decides; a bad bearer that no session stands behind is refused without a read of the store.
      if (!bearer || request.access.state === 'signed-in' || acceptsHtml(request)) return;
      return refuseBearer(reply, options.resourceMetadataUrl, 'invalid_token');
    }
    const waitSeconds = await options.failures.refusedFor(request.ip, credential, parsed.id);
    if (waitSeconds !== undefined) {
      reply.header('retry-after', String(waitSeconds));
      return sendApiError(reply, 'rate_limited:token');
    }
    const at = now();
    const row = await rowOfBearer(options.db, parsed, at);
    if (!row) {
      options.failures.failed(request.ip, credential, parsed.id);
      return refuseBearer(reply, options.resourceMetadataUrl, 'invalid_token');
    }
    options.failures.verified(credential);
    const access = accessOfToken(row, options.currentPolicy());
    if (access.state === 'signed-in' && !access.decision.allowed) {
      return sendApiError(reply, 'forbidden:access', errorDetails.guard.tokenOwnerRefused);
    }
    if (!parsed.personal && !acceptsApplicationToken(request.routeOptions.url)) {
      reply.header(
        'www-authenticate',
        `Bearer error="insufficient_scope", resource_metadata="${options.resourceMetadataUrl}"`,
      );
      return sendApiError(reply, 'forbidden:token_scope');
    }
    request.access = access;
    touchPersonalToken(options.db, { id: row.id, now: at, throttleMs: lastUsedThrottleMs }).catch((error: unknown) =>
      request.log.warn({ err: error, tokenId: row.id }, 'could not record when a personal token was last used'),
    );
  });
}
