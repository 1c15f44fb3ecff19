import { describe, expect } from 'vitest';
import { test } from './fixtures';
import { freshReader, postMcp, type RpcAnswer, toolCall } from './mcp-post';

/**
 * A JSON-RPC batch (up to 100 entries in one POST /mcp) gives way to everyone else between its entries: another
 * reader's doc page is served while it runs, not after it (attack review: 100 searches of 500 random characters held a
 * page for 2.87 s; 100 read_page or resources/list, about 1 s).
 */
test.override({ serverEnvironment: { LOG_LEVEL: 'silent' } });

/** Words no page holds, the same every run: each search scores every section for 83 of them. */
function randomQueries(count: number) {
  let seed = 20_251_201;
  const letter = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return String.fromCharCode(97 + (seed % 26));
  };
  const word = () => Array.from({ length: 5 }, letter).join('');
  return Array.from({ length: count }, () => Array.from({ length: 83 }, word).join(' '));
}

const batches = {
  '100 searches of 500 random characters': randomQueries(100).map((query, id) =>
    toolCall(id, 'search_handbook', { query, limit: 20 }),
  ),
  '100 read_page': Array.from({ length: 100 }, (_, id) => toolCall(id, 'read_page', { url: '/coding-standard' })),
  '100 resources/list': Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'resources/list' })),
};

describe('a batch of 100 entries', () => {
  test.for(Object.keys(batches) as (keyof typeof batches)[])(
    '(%s) lets another reader read a page while it runs',
    // The file's server starts in the first test; a loaded machine takes its time over both.
    { timeout: 120_000 },
    async (kind, { server, sessionCookie }) => {
      const { token } = await freshReader(server.baseUrl, 'batcher');
      const readPage = async () => {
        const started = performance.now();
        const response = await fetch(`${server.baseUrl}/firestore-ttl/`, { headers: { cookie: sessionCookie } });
        await response.text();
        expect(response.status).toBe(200);
        return performance.now() - started;
      };
      await readPage();
      let answered = false;
      const started = performance.now();
      const batch = postMcp(server.baseUrl, token, batches[kind]).finally(() => {
        answered = true;
      });
      const pageTimes: number[] = [];
      while (!answered) {
        pageTimes.push(await readPage());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const { status, json } = await batch;
      const batchMs = performance.now() - started;
      expect(status).toBe(200);
      const answers = json as RpcAnswer[];
      expect(answers).toHaveLength(100);
      expect(answers.filter((answer) => answer.error !== undefined)).toEqual([]);
      // Before: one page, held for the whole batch. Now pages are served all along, between the batch's entries (what
      // is checked is that they are served meanwhile, not how fast: times are for the message alone).
      const times = `the batch took ${Math.round(batchMs)} ms; pages took ${pageTimes.map(Math.round).join(', ')} ms`;
      expect(pageTimes.length, times).toBeGreaterThanOrEqual(5);
    },
  );
});
