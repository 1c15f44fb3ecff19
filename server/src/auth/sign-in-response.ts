import { errorBody, errorDetails } from '@acme/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withoutQuery } from '../access-log.js';
import { type AccessPolicy, primaryDomains } from './access-policy.js';
import type { RequestAccess } from './request-access.js';
import { renderSignInPage, type SignInProblem, signInPageTemplate } from './sign-in-page.js';
import { hasTokenInAddress, isMarkdownPath } from './tokens/token-scope.js';

const signInRequired = JSON.stringify(errorBody('unauthorized:session'));
const tokenRequired = JSON.stringify(errorBody('unauthorized:token_missing'));
const tokenInAddress = JSON.stringify(errorBody('unauthorized:token_missing', errorDetails.guard.tokenInAddress));
const notAllowedResponse = JSON.stringify(errorBody('forbidden:access'));

export type SignInDetails = { status: number; returnPath?: string; problem?: SignInProblem; forceHtml?: boolean };

/** What a request without an allowed session is answered with: status, headers and body. */
export type SignInAnswer = {
  status: number;
  headers: { 'cache-control': 'no-store'; 'content-type': string; 'www-authenticate'?: string };
  body: string;
};

/** 401 without a session, 403 for a session the access policy does not allow. */
export const signInStatus = (access: RequestAccess) => (access.state === 'signed-in' ? 403 : 401);

const answerOf = (status: number, contentType: string, body: string): SignInAnswer => ({
  status,
  headers: { 'cache-control': 'no-store', 'content-type': contentType },
  body,
});

/**
 * Answers a request that has no allowed session: the sign-in page for a browser, 401 or 403 JSON for anything else. A
 * script asking for a page's Markdown (`/faqs.md`, `/llms.txt`) with no credential at all is told to send a token, as
 * `/mcp` tells it, with RFC 9728's pointer: "sign in" is no advice to a script.
 */
export function createSignInResponder(options: {
  currentPolicy: () => AccessPolicy;
  developmentSignIn: boolean;
  /** `<PUBLIC_URL>/.well-known/oauth-protected-resource`. */
  resourceMetadataUrl: string;
}) {
  const bearerChallenge = `Bearer resource_metadata="${options.resourceMetadataUrl}"`;
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

  function signInAnswer(access: RequestAccess, accept: string | undefined, details: SignInDetails): SignInAnswer {
    const refused =
      access.state === 'signed-in' && !access.decision.allowed
        ? { email: access.session.email, refusal: access.decision.reason }
        : undefined;
    const { status } = details;
    if (!details.forceHtml && !accept?.includes('text/html')) {
      if (access.state === 'signed-out' && isMarkdownPath(withoutQuery(details.returnPath ?? '/'))) {
        const body = hasTokenInAddress(details.returnPath ?? '/') ? tokenInAddress : tokenRequired;
        const answer = answerOf(status, 'application/json; charset=utf-8', body);
        return { ...answer, headers: { ...answer.headers, 'www-authenticate': bearerChallenge } };
      }
      return answerOf(status, 'application/json; charset=utf-8', refused ? notAllowedResponse : signInRequired);
    }
    const contentType = 'text/html; charset=utf-8';
    if (!refused && !details.problem) {
      return answerOf(status, contentType, plainPage(options.currentPolicy())(details.returnPath ?? '/'));
    }
    const body = renderSignInPage({
      primaryDomains: primaryDomains(options.currentPolicy()),
      returnPath: details.returnPath ?? '/',
      signedInAs: refused,
      problem: details.problem,
      developmentSignIn: options.developmentSignIn,
    });
    return answerOf(status, contentType, body);
  }

  function sendSignInPage(request: FastifyRequest, reply: FastifyReply, details: SignInDetails) {
    const answer = signInAnswer(request.access, request.headers.accept, details);
    return reply.headers(answer.headers).code(answer.status).send(answer.body);
  }
  return Object.assign(sendSignInPage, { answer: signInAnswer });
}

export type SendSignInPage = ReturnType<typeof createSignInResponder>;
