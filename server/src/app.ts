import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { siteRoutes } from './gate/site-routes.js';

function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  if (config.environment !== 'development') return { level: config.logLevel };
  return { level: config.logLevel, transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } };
}

/** Builds the whole server from a parsed config; tests call this with their own config. */
export async function buildApp(config: Config) {
  const app = Fastify({ logger: loggerOptions(config), trustProxy: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(siteRoutes, { siteDirectory: config.siteDirectory });
  return app;
}
