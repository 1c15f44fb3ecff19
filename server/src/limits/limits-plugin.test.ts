import Fastify from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test-support/limits.js';
import type { Config } from '../config.js';
import type { Store } from '../store/database.js';
import { limitsPlugin, redisUrlIgnored } from './limits-plugin.js';

/** The limits plugin on an embedded store, with REDIS_URL as an operator set it (or not). */
async function startedWith(config: Pick<Config, 'redisUrlIgnored'>) {
  const { log, lines, warnings } = capturedLog();
  const app = Fastify({ loggerInstance: log });
  app.decorate('config', config as Config);
  const embeddedStore = fp(
    async (inner) => {
      inner.decorate('store', { kind: 'pglite' } as Store);
    },
    { name: 'store' },
  );
  await app.register(embeddedStore);
  await app.register(limitsPlugin);
  await app.ready();
  const where = app.limits.where;
  await app.close();
  return { where, lines, warnings };
}

describe('the limits plugin', () => {
  it('warns once at start, naming REDIS_URL, that the variable is ignored, and counts as without it', async () => {
    const started = await startedWith({ redisUrlIgnored: true });
    expect(started.warnings()).toEqual([redisUrlIgnored]);
    expect(started.lines.find((line) => line.level === 40)).toMatchObject({ variable: 'REDIS_URL' });
    expect(redisUrlIgnored).toMatch(/^REDIS_URL is no longer used.*PostgreSQL/);
    expect(started.where).toBe('process');
  });

  it('says nothing of REDIS_URL when it is not set', async () => {
    const started = await startedWith({ redisUrlIgnored: false });
    expect(started.warnings()).toEqual([]);
    expect(started.where).toBe('process');
  });
});
