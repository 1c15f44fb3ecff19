import { defaultTokenLifetimeDays } from '@acme/contract';
import { escapeHtml, renderPage } from '../html.js';
import type { AuthorizationRequest } from './authorization-request.js';

/** The authorization request, carried through the consent form unchanged and checked again when it comes back. */
function hiddenFields(request: AuthorizationRequest): string {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    resource: request.resource,
    state: request.state,
  };
  return Object.entries(fields)
    .filter((field): field is [string, string] => field[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
}

/**
 * The reader's consent: which application asks (its name as it registered it, escaped, and where it returns to),
 * what it gets (read-only access to the handbook as the reader, for a bounded time, revocable) and Allow / Deny.
 */
export function renderConsentPage(options: { request: AuthorizationRequest; email: string; problem?: string }) {
  const { request } = options;
  const returnsTo = new URL(request.redirectUri);
  const problem = options.problem
    ? `<p class="notice error" role="alert" data-testid="oauth-problem">${escapeHtml(options.problem)}</p>`
    : '';
  return renderPage({
    title: 'Allow access to the handbook',
    testId: 'oauth-consent',
    body: `<h1>Allow <span data-testid="oauth-client-name">${escapeHtml(request.client.name)}</span> to read the handbook as you?</h1>
${problem}
<p>Signed in as <strong>${escapeHtml(options.email)}</strong>.</p>
<p>It will be able to search the handbook, read its pages and ask Dev Copilot, as you, with read-only access: it cannot read or change your conversations, and cannot change your settings or your access tokens.</p>
<p class="muted">It returns to <code>${escapeHtml(returnsTo.host)}</code> (${escapeHtml(returnsTo.protocol.slice(0, -1))}). Access lasts ${defaultTokenLifetimeDays} days; revoke it at any time on <a href="/access-tokens">Access tokens</a>. Allow only an application you have just added yourself.</p>
<form method="post" action="/oauth/authorize">
${hiddenFields(request)}
<button class="button" type="submit" name="decision" value="allow" data-testid="oauth-allow">Allow</button>
<button class="button secondary" type="submit" name="decision" value="deny" data-testid="oauth-deny">Deny</button>
</form>`,
  });
}

/** A request we cannot send back to any application: the reader is told what went wrong, and nothing is granted. */
export function renderAuthorizationProblemPage(message: string) {
  return renderPage({
    title: 'Cannot connect the application',
    testId: 'oauth-problem-page',
    body: `<h1>Cannot connect the application</h1>
<p class="notice error" role="alert" data-testid="oauth-problem">${escapeHtml(message)}</p>
<p class="muted">Nothing was shared. Remove the handbook from the application and add it again, or use a personal access token from <a href="/access-tokens">Access tokens</a>.</p>`,
  });
}
