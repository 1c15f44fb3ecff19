import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { retrieve } from '../../search/coverage.js';
import { createSearchEngine } from '../../search/engine.js';
import { type Conversation, lastQuestionOf, retrieveAsked } from './asked-question.js';
import { closestPages } from './docs-only-answer.js';
import { searchQueryOf } from './follow-up.js';

const index = createSearchEngine([
  docSection('/gitlab-runner', 'GitLab Runner', 'Registering a runner', [
    { kind: 'text', markdown: 'Register a GitLab runner with gitlab-runner register and the registration token.' },
  ]),
  docSection('/gitlab-runner', 'GitLab Runner', 'Windows', [
    { kind: 'text', markdown: 'On Windows, install the runner as a service with gitlab-runner install.' },
  ]),
  docSection('/firestore-ttl', 'Firestore TTL', 'Creating a policy', [
    { kind: 'text', markdown: 'Create a TTL policy on the expireAt field of the sessions collection group.' },
  ]),
  docSection('/figma-handoff', 'Figma hand-off', 'Exporting icons', [
    { kind: 'text', markdown: 'Designers export icons from Figma as SVG; developers never redraw them.' },
  ]),
]);

const thread = (...questions: string[]): Conversation => ({
  messages: questions.flatMap((text, position) => [
    ...(position > 0 ? [{ role: 'assistant' as const, text: 'An answer.', attachments: [] }] : []),
    { role: 'user' as const, text, attachments: [] },
  ]),
});

/** How the answer service retrieves for a thread's last question, and the pages a "not covered" would list. */
async function retrievalFor(conversation: Conversation) {
  const searched: string[] = [];
  const retrieval = await retrieveAsked(
    async (text) => {
      searched.push(text);
      return retrieve(index, text, { limit: 8 });
    },
    { searched: searchQueryOf(conversation), asked: lastQuestionOf(conversation) },
  );
  return { retrieval, searched, closest: closestPages(retrieval.hits).map((page) => page.url) };
}

describe('retrieveAsked', () => {
  it('answers a short follow-up in the topic of the question before it', async () => {
    const { retrieval, searched } = await retrievalFor(thread('How do I register a GitLab runner?', 'On Windows?'));
    expect(retrieval.coverage.covered).toBe(true);
    expect(retrieval.hits[0]?.url).toMatch(/^\/gitlab-runner/);
    expect(searched).toHaveLength(1);
  });

  it('lists the pages nearest to a short new topic the docs do not cover, not those of the earlier topic', async () => {
    const { retrieval, closest } = await retrievalFor(thread('How do I register a GitLab runner?', 'Figma kerning?'));
    expect(retrieval.coverage.covered).toBe(false);
    expect(closest).toEqual(['/figma-handoff']);
  });

  it('lists no page of the earlier topic for a follow-up that finds nothing at all', async () => {
    const { retrieval, closest } = await retrievalFor(thread('How do I register a GitLab runner?', 'qwxzvbnmplk'));
    expect(retrieval.coverage.covered).toBe(false);
    expect(closest).toEqual([]);
  });

  it('searches a standalone question once, as asked', async () => {
    const { searched } = await retrievalFor(thread('How do I create a TTL policy for expireAt?'));
    expect(searched).toEqual(['How do I create a TTL policy for expireAt?']);
  });
});

describe('searchQueryOf', () => {
  it('searches a question that refers back or goes on with the one before it, whatever its length', () => {
    const before = 'How do I create a TTL policy for expireAt?';
    for (const followUp of [
      "how long until they're actually deleted from the collection?",
      'and what about webhookEvents?',
    ]) {
      expect(searchQueryOf(thread(before, followUp))).toBe(`${before} ${followUp}`);
    }
  });

  it('goes back to the topic a follow-up of a follow-up leans on', () => {
    const first = 'How do I create a TTL policy for expireAt?';
    const second = 'how long until they are gone?';
    expect(searchQueryOf(thread(first, second, 'tell me more'))).toBe(`${first} ${second} tell me more`);
    // A new question in between starts a new topic.
    expect(searchQueryOf(thread(first, 'How do I register a GitLab runner?', 'on Windows?'))).toBe(
      'How do I register a GitLab runner? on Windows?',
    );
  });

  it('searches a new question of four words or more on its own words', () => {
    expect(searchQueryOf(thread('How do I register a GitLab runner?', 'How do I export icons from Figma?'))).toBe(
      'How do I export icons from Figma?',
    );
  });

  it("takes the page's title, not the overview's words, as the topic of a follow-up to an overview", () => {
    const overview = 'What are the key points of the page "Firestore TTL"?';
    expect(searchQueryOf(thread(overview, 'how long until they are deleted?'))).toBe(
      'Firestore TTL how long until they are deleted?',
    );
    expect(searchQueryOf(thread('Summarize this page', 'what do they cost?'), 'Firestore TTL')).toBe(
      'Firestore TTL what do they cost?',
    );
  });

  it('finds the section of the page an overview was of, for a follow-up that names no subject', async () => {
    const { retrieval } = await retrievalFor(
      thread('What are the key points of the page "Firestore TTL"?', 'which field do they expire on?'),
    );
    expect(retrieval.hits[0]?.url).toMatch(/^\/firestore-ttl/);
  });
});

describe('lastQuestionOf', () => {
  it('is the last question alone, its text parts joined', () => {
    expect(lastQuestionOf(thread('First question here', 'And the second?'))).toBe('And the second?');
    expect(lastQuestionOf({ messages: [] })).toBe('');
  });
});
