import type { FastifyRequest } from 'fastify';
import { type AccessPolicy, isMaintainer } from '../auth/access-policy.js';

/** Whether the request comes with a browser session of a docs maintainer under the policy in force now. */
export function isMaintainerRequest(request: FastifyRequest, policy: AccessPolicy): boolean {
  const access = request.access;
  if (access.state !== 'signed-in') return false;
  const { email, emailVerified, hostedDomain } = access.session;
  return isMaintainer(policy, { email, emailVerified, hostedDomain: hostedDomain ?? undefined });
}
