import fp from 'fastify-plugin';
import { requestRecorder } from '../access-log.js';
import { cookieNames } from '../auth/session-cookie.js';
import type { createFastLane } from './fast-lane.js';

/**
 * Opens the fast lane (`open`; tests compare the answers of a server without it) on the instance's snapshot, sessions,
 * sign-in answers and access policy, its answers written down as Fastify's are.
 */
export const fastLanePlugin = fp<{ lane: ReturnType<typeof createFastLane>; open: boolean }>(
  async (app, { lane, open }) => {
    app.decorate('fastLaneAnswers', lane.answered);
    if (!open) return;
    const { site, accessResolver, signInPage, accessPolicy } = app;
    const sessionCookie = cookieNames(app.config).session;
    const record = requestRecorder(app.metrics?.observeRequest);
    lane.open({
      current: site.current,
      accessOf: (cookieHeader) =>
        accessResolver.known(cookieHeader ? app.parseCookie(cookieHeader)[sessionCookie] : undefined),
      routedToSite: (method, path) => app.findRoute({ method, url: path })?.params['*'] === path.slice(1),
      signInAnswer: signInPage.answer,
      currentPolicy: accessPolicy.current,
      record: (answered, reqId) => record(app.log, answered, { reqId }),
      onError: (error) => app.log.error({ err: error }, 'the fast lane failed; Fastify answers instead'),
    });
  },
  {
    name: 'fast-lane',
    fastify: '5.x',
    dependencies: ['site', 'auth', 'access-policy'],
    decorators: {
      fastify: ['config', 'metrics', 'site', 'accessResolver', 'signInPage', 'accessPolicy', 'parseCookie'],
    },
  },
);
