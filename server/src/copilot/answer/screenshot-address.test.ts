import { describe, expect, it } from 'vitest';
import { builtSiteDirectory } from '../../../test-support/recorded-ranking.js';
import { createSearchEngine } from '../../search/engine.js';
import { readDocSections } from '../../search/sections.js';
import { composeDocsOnlyAnswer } from './docs-only-answer.js';
import { retrieveForAnswer } from './retriever.js';

const engine = createSearchEngine(readDocSections(builtSiteDirectory));
const errorLine = 'Error 1033: Argo Tunnel error';

/** The docs-only answer to a typed question with a screenshot's text, as the Copilot retrieves for it. */
async function answerTo(typed: string, imageText: string) {
  const retrieval = await retrieveForAnswer(
    engine,
    { typed, imageText, page: undefined },
    undefined,
    new AbortController().signal,
  );
  const answer = composeDocsOnlyAnswer({
    retrieval,
    termWeight: engine.termWeight,
    meaningWeight: engine.meaningWeight,
    readFromImages: imageText,
  });
  return { retrieval, answer };
}

describe('a screenshot of an error with an address in it, asked about as "what does this mean?"', () => {
  it.each([
    [
      'a page about the error',
      'https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/troubleshoot-tunnels/',
    ],
    ["the browser's address bar on the reader's tunnel", 'https://minh-nguyen.dev-tunnel.acme.dev/'],
    ['a curl of the health check', '$ curl https://minh-nguyen.dev-tunnel.acme.dev/healthz'],
    ['an address without its scheme', 'www.minh-nguyen.dev-tunnel.acme.dev/app/orders'],
  ])('answers from the Error 1033 section, not from the address (%s)', async (_, address) => {
    for (const imageText of [`${errorLine}\n${address}`, `${address}\n${errorLine}`]) {
      const { retrieval, answer } = await answerTo('what does this mean?', imageText);
      expect(retrieval.hits[0]?.url, imageText).toBe('/cloudflare-tunnel#error-1033');
      expect(answer.sources[0]?.url, imageText).toBe('/cloudflare-tunnel#error-1033');
    }
  });
});
