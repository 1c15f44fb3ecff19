import fp from 'fastify-plugin';
import type { AccessPolicy } from './access-policy.js';
import { createPolicySource } from './policy-source.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Which accounts may read the handbook: the ACCESS_* settings, or the policy file as it is now. */
    accessPolicy: { current(): AccessPolicy };
  }
}

/** The access policy in force; a broken policy file keeps the last good policy and is logged. */
export const accessPolicyPlugin = fp(
  async (app) => {
    const { accessSettings, accessPolicyFile } = app.config;
    app.decorate(
      'accessPolicy',
      createPolicySource(accessSettings, accessPolicyFile, (message) => app.log.error(message)),
    );
  },
  { name: 'access-policy', fastify: '5.x', decorators: { fastify: ['config'] } },
);
