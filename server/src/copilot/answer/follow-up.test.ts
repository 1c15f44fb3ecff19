import { describe, expect, it } from 'vitest';
import { docSection } from '../../../test-support/doc-sections.js';
import { retrieve } from '../../search/coverage.js';
import { createSearchEngine } from '../../search/engine.js';
import { aheadOfWhatWasQuoted } from './follow-up.js';

const index = createSearchEngine([
  docSection('/faqs/', 'FAQs', 'How do I delete old documents automatically?', [
    {
      kind: 'text',
      markdown: 'Use a Firestore TTL policy on a timestamp field to delete old documents automatically.',
    },
  ]),
  docSection('/firestore-ttl', 'Firestore TTL', 'Deletion is not immediate', [
    { kind: 'text', markdown: 'Expired documents are typically deleted within 24 hours after they expire.' },
  ]),
  docSection('/gitlab-runner', 'GitLab Runner', 'Registering a runner', [
    { kind: 'text', markdown: 'Register a GitLab runner with gitlab-runner register; on Windows run it as a service.' },
  ]),
  docSection('/gitlab-runner', 'GitLab Runner', 'Tokens', [
    { kind: 'text', markdown: 'The registration token of a GitLab runner comes from the group settings.' },
  ]),
]);

/** The sections for a follow-up searched with the question before it, after that question's answer. */
function followUp(before: string, question: string, answerBefore: string) {
  const retrieval = retrieve(index, `${before} ${question}`, { asked: question });
  return aheadOfWhatWasQuoted(retrieval, answerBefore, (url) => index.sectionAt(url)?.url).hits.map((hit) => hit.url);
}

describe('aheadOfWhatWasQuoted', () => {
  const first = 'How do I delete old documents automatically?';
  // The answer linked the section as a model may write it, without the slash before the anchor.
  const faq = retrieve(index, first).hits[0]?.url ?? '';
  const firstAnswer = `**[FAQs › Deleting old documents](${faq.replace('/faqs/#', '/faqs#')})**`;

  it('answers what the answer before did not say, not the same section again', () => {
    expect(retrieve(index, `${first} how long until they are actually gone?`).hits[0]?.url).toMatch(/^\/faqs\//);
    expect(followUp(first, 'how long until they are actually gone?', firstAnswer)[0]).toBe(
      '/firestore-ttl#deletion-is-not-immediate',
    );
  });

  it('keeps a quoted section first for a follow-up that wants more of the same', () => {
    for (const more of ['tell me more', 'why?', 'and then?']) {
      expect(followUp(first, more, firstAnswer)[0]).toMatch(/^\/faqs\//);
    }
  });

  it('keeps a quoted section first when it holds what the follow-up names', () => {
    const runnerAnswer = 'See [Registering a runner](/gitlab-runner#registering-a-runner).';
    expect(followUp('How do I register a GitLab runner?', 'and on Windows?', runnerAnswer)[0]).toBe(
      '/gitlab-runner#registering-a-runner',
    );
  });

  it('changes nothing for a question searched on its own words, or after an answer that quoted nothing', () => {
    const alone = retrieve(index, first);
    expect(aheadOfWhatWasQuoted(alone, firstAnswer, (url) => index.sectionAt(url)?.url)).toBe(alone);
    const joined = retrieve(index, `${first} how long until they are gone?`, {
      asked: 'how long until they are gone?',
    });
    expect(
      aheadOfWhatWasQuoted(joined, 'The handbook does not cover this.', (url) => index.sectionAt(url)?.url).hits,
    ).toEqual(joined.hits);
  });
});
