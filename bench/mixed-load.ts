/**
 * What a busy handbook asks of the server at once, for bench/serving.ts: pages and chunks at full speed, searches
 * and Dev Copilot questions at a reader's pace, spread over several signed-in readers.
 */
import autocannon from 'autocannon';
import { countResponses, type ResponseCounts } from './load';
import { assetUrlPaths, pageUrlPaths } from './site-copies';

const searchWords = ['deploy', 'webhook', 'firestore ttl', 'cloud tasks', 'shopify', 'code review'];
const question = JSON.stringify({
  messages: [{ role: 'user', content: [{ type: 'text', text: 'How do I deploy the app?' }] }],
});

/** Below the 300 searches a minute a reader may make: this part is about memory, not the rate limit. */
const searchesPerSecondPerReader = 4;
/** Three times the 20 questions a minute a reader may ask, so refused questions are part of the mix. */
const questionsPerSecondPerReader = 1;

export type MixedLoad = {
  url: string;
  publicOrigin: string;
  siteDirectory: string;
  /** One `cookie` header per signed-in reader; the first one also reads pages and chunks. */
  readerCookies: string[];
  seconds: number;
};

/** Runs every kind of request side by side for `seconds`; resolves with the responses of each kind. */
export async function runMixedLoad(load: MixedLoad): Promise<Record<string, ResponseCounts>> {
  const [firstReader = ''] = load.readerCookies;
  const base = { url: load.url, duration: load.seconds };
  const pages = autocannon({
    ...base,
    connections: 8,
    headers: { cookie: firstReader, accept: 'text/html', 'accept-encoding': 'br, gzip' },
    requests: pageUrlPaths(load.siteDirectory).map((path) => ({ method: 'GET', path })),
  });
  const chunks = autocannon({
    ...base,
    connections: 4,
    headers: { cookie: firstReader, 'accept-encoding': 'br, gzip' },
    requests: assetUrlPaths(load.siteDirectory).map((path) => ({ method: 'GET', path })),
  });
  const searches = load.readerCookies.map((cookie) =>
    autocannon({
      ...base,
      connections: 1,
      overallRate: searchesPerSecondPerReader,
      headers: { cookie },
      requests: searchWords.map((word) => ({ method: 'GET', path: `/api/search?q=${encodeURIComponent(word)}` })),
    }),
  );
  const questions = load.readerCookies.map((cookie) =>
    autocannon({
      ...base,
      url: `${load.url}/api/askAi`,
      connections: 1,
      overallRate: questionsPerSecondPerReader,
      method: 'POST',
      body: question,
      headers: { cookie, origin: load.publicOrigin, 'content-type': 'application/json' },
    }),
  );
  return {
    'doc pages': countResponses([await pages]),
    'JS/CSS chunks': countResponses([await chunks]),
    search: countResponses(await Promise.all(searches)),
    askAi: countResponses(await Promise.all(questions)),
  };
}
