import { textOfContent } from '@acme/contract';
import type { NewMessage } from '../src/store/messages.js';

/** A reader's question, first in its thread unless it follows the answer `parentId`. */
export const question = (text: string, parentId: string | null = null): NewMessage => ({
  parentId,
  role: 'user',
  content: [{ type: 'text', text }],
});

/** An answer to the question `parentId`, resting on one section of the handbook. */
export const answer = (text: string, parentId: string): NewMessage => ({
  parentId,
  role: 'assistant',
  content: [{ type: 'text', text }],
  sources: [{ title: 'Deploying', url: '/docs/deploying' }],
});

/** A stored message's text, or undefined for no message: what the reader reads, without the searches made for it. */
export const storedText = (message: { content: Parameters<typeof textOfContent>[0] } | undefined) =>
  message && textOfContent(message.content);
