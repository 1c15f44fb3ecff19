import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AccessPolicy, primaryDomains } from './access-policy.js';
import { renderSignInPage, type SignInProblem, signInPageTemplate } from './sign-in-page.js';

const signInRequired = JSON.stringify({
  error: { code: 'unauthorized:session', message: 'Sign in to read the handbook.' },
});
const notAllowedResponse = JSON.stringify({
  error: { code: 'forbidden:access', message: 'This account is not allowed to read the handbook.' },
});

/** Answers a request that has no allowed session: the sign-in page for a browser, 401 or 403 JSON for anything else. */
export function createSignInResponder(options: { currentPolicy: () => AccessPolicy; developmentSignIn: boolean }) {
  // One template per policy in force: a changed policy file gives a new policy object, and so a new page.
  const templates = new WeakMap<AccessPolicy, (returnPath: string) => string>();
  const plainPage = (policy: AccessPolicy) => {
    let template = templates.get(policy);
    if (!template) {
      template = signInPageTemplate({
        primaryDomains: primaryDomains(policy),
        developmentSignIn: options.developmentSignIn,
      });
      templates.set(policy, template);
    }
    return template;
  };
  return function sendSignInPage(
    request: FastifyRequest,
    reply: FastifyReply,
    details: { status: number; returnPath?: string; problem?: SignInProblem; forceHtml?: boolean },
  ) {
    const { viewer } = request;
    const refused =
      viewer.state === 'signed-in' && !viewer.access.allowed
        ? { email: viewer.session.email, refusal: viewer.access.reason }
        : undefined;
    reply.header('cache-control', 'no-store').code(details.status);
    if (!details.forceHtml && !request.headers.accept?.includes('text/html')) {
      return reply.type('application/json; charset=utf-8').send(refused ? notAllowedResponse : signInRequired);
    }
    reply.type('text/html; charset=utf-8');
    if (!refused && !details.problem) return reply.send(plainPage(options.currentPolicy())(details.returnPath ?? '/'));
    return reply.send(
      renderSignInPage({
        primaryDomains: primaryDomains(options.currentPolicy()),
        returnPath: details.returnPath ?? '/',
        signedInAs: refused,
        problem: details.problem,
        developmentSignIn: options.developmentSignIn,
      }),
    );
  };
}

export type SendSignInPage = ReturnType<typeof createSignInResponder>;
