import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog, requestRecorder, serializeRequest } from './access-log.js';

/** A server logging as ours does, and every line it wrote. */
async function loggingServer() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({
    logger: { level: 'info', serializers: { req: serializeRequest }, stream },
    logController: new AccessLog(requestRecorder(undefined)),
  });
  app.get('/fails', async () => {
    throw new Error('broken');
  });
  await app.ready();
  return { app, lines };
}

describe('the log never holds a query string', () => {
  const secret = 'acme_pat_SECRETSECRETSECRET1234567890';

  it('names a route nobody serves by its path alone (a token or code put in the query is a secret)', async () => {
    const { app, lines } = await loggingServer();
    const response = await app.inject({ method: 'PUT', url: `/mcp?access_token=${secret}&code=abc` });
    expect(response.statusCode).toBe(404);
    const log = lines.join('');
    expect(log).toContain('Route PUT:/mcp not found');
    expect(log).not.toContain(secret);
    expect(log).not.toContain('code=abc');
    await app.close();
  });

  it("writes a failed request's URL without its query", async () => {
    const { app, lines } = await loggingServer();
    const response = await app.inject({ method: 'GET', url: `/fails?token=${secret}` });
    expect(response.statusCode).toBe(500);
    const log = lines.join('');
    expect(log).toContain('"url":"/fails"');
    expect(log).not.toContain(secret);
    await app.close();
  });
});
