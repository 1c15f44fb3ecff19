import type { FastifyServerOptions } from 'fastify';
import { serializeRequest } from './access-log.js';
import type { Config } from './config.js';
import type { LogDestination } from './log-destination.js';
import { serializeError } from './log-serializers.js';

/**
 * Both formats write through one bounded destination (a log sink that stops reading cannot hold the process). Pretty
 * lines are made on this thread: pino's transport would start a worker thread (about 20 MB) for them.
 */
export async function loggerOptions(
  config: Pick<Config, 'logFormat' | 'logLevel'>,
  destination: LogDestination,
): Promise<FastifyServerOptions['logger']> {
  const serializers = { err: serializeError, req: serializeRequest };
  if (config.logFormat === 'json') return { level: config.logLevel, serializers, stream: destination.stream };
  const { default: pinoPretty } = await import('pino-pretty');
  return {
    level: config.logLevel,
    serializers,
    stream: pinoPretty({ translateTime: 'HH:MM:ss', destination: destination.stream }),
  };
}
