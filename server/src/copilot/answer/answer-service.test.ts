import { expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { createSearchEngine } from '../../search/engine.js';
import type { CheckedImage } from '../images.js';
import { startAnswer } from './answer-service.js';

it('gives up an answer stopped while its screenshots were read, rather than say they held no text', async () => {
  const index = createSearchEngine([docSection('/npm', 'npm', 'E401', 'Log in to the registry again.')]);
  const stopping = new AbortController();
  const shutdown = new Error('the server is shutting down');
  const started = startAnswer(
    {
      publicOrigin: 'http://localhost:3000',
      currentIndex: () => index,
      readImageText: async () => {
        stopping.abort(shutdown);
        return '';
      },
    },
    { messages: [{ role: 'user', text: 'what does this error mean?', attachments: [] }] },
    { images: [{} as CheckedImage], reader: 'ada' },
    stopping.signal,
  );
  await expect(started).rejects.toBe(shutdown);
});
