import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AccessPolicy, primaryDomains } from './access-policy.js';
import { renderSignInPage, type SignInProblem } from './sign-in-page.js';

/** Answers a request that has no allowed session: the sign-in page for a browser, 401 or 403 JSON for anything else. */
export function createSignInResponder(options: { currentPolicy: () => AccessPolicy; developmentSignIn: boolean }) {
  return function sendSignInPage(
    request: FastifyRequest,
    reply: FastifyReply,
    details: { status: number; returnPath?: string; problem?: SignInProblem; forceHtml?: boolean },
  ) {
    const viewer = request.viewer;
    const notAllowed = viewer.state === 'signed-in' && !viewer.access.allowed;
    reply.header('cache-control', 'no-store').code(details.status);
    if (!details.forceHtml && !request.headers.accept?.includes('text/html')) {
      return reply.send({
        error: notAllowed
          ? { code: 'forbidden:access', message: 'This account is not allowed to read the handbook.' }
          : { code: 'unauthorized:session', message: 'Sign in to read the handbook.' },
      });
    }
    return reply.type('text/html; charset=utf-8').send(
      renderSignInPage({
        primaryDomains: primaryDomains(options.currentPolicy()),
        returnPath: details.returnPath ?? '/',
        signedInAs: notAllowed ? viewer.session.email : undefined,
        problem: details.problem,
        developmentSignIn: options.developmentSignIn,
      }),
    );
  };
}

export type SendSignInPage = ReturnType<typeof createSignInResponder>;
