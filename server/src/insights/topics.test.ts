import { describe, expect, it } from 'vitest';
import type { UnansweredQuestion } from './queries.js';
import { groupIntoTopics, topicWords } from './topics.js';

/** A question asked `minutesAgo`, by a reader of its own unless `reader` says whose. */
const asked = (
  question: string,
  page: string | null,
  minutesAgo: number,
  reader = `reader-${minutesAgo}`,
): UnansweredQuestion => ({
  reader,
  question,
  confidence: page ? 'closest' : 'none',
  nearestPageUrl: page,
  nearestPageTitle: page ? `Title of ${page}` : null,
  askedAt: new Date(Date.UTC(2026, 10, 26, 12) - minutesAgo * 60_000),
});

describe('groupIntoTopics', () => {
  it('keeps questions near one page that share words together, and apart from another subject near it', () => {
    const topics = groupIntoTopics([
      asked('How do I rotate the Typesense admin key?', '/typesense#keys', 1),
      asked('Typesense admin key rotation schedule?', '/typesense', 2),
      asked('Where is the typesense admin key kept?', '/typesense', 3),
      asked('Can Typesense run on ARM laptops?', '/typesense', 4),
    ]);

    expect(topics.map((topic) => [topic.page?.url, topic.readers])).toEqual([
      ['/typesense', 3],
      ['/typesense', 1],
    ]);
    // As frequent, the words go in the order the newest question says them.
    expect(topics[0]?.label).toBe('typesense admin key');
    expect(topics[0]?.examples).toHaveLength(3);
    expect(topics[0]?.examples[0]).toBe('How do I rotate the Typesense admin key?');
  });

  it('never merges the same words near different pages: each topic names one page to extend', () => {
    const topics = groupIntoTopics([
      asked('deploy preview environments', '/deploying', 1),
      asked('deploy preview environments', '/previews', 2),
      asked('deploy preview environments', null, 3),
    ]);

    expect(topics.map((topic) => topic.page?.url ?? null)).toEqual(['/deploying', '/previews', null]);
  });

  it('sends a question the docs do not cover to a new page, however near a page its words came', () => {
    const wifi = { ...asked('what is the wifi password in the office', '/wsl-basics', 1), confidence: 'none' as const };
    const [topic] = groupIntoTopics([wifi]);

    expect(topic).toMatchObject({ page: null, label: 'wifi password office' });
  });

  it('leaves words that say nothing of a subject out of its label', () => {
    expect(topicWords('can I just install it on my mac?')).toEqual(['install', 'mac']);
    expect(topicWords('who do I ask for access to github')).toEqual(['access', 'github']);
  });

  it('ranks the biggest topic first, then the newest', () => {
    const topics = groupIntoTopics([
      asked('vpn certificate expired', '/vpn', 1),
      asked('sso login loop', '/sso', 5),
      asked('sso login loop again', '/sso', 6),
    ]);

    expect(topics.map((topic) => topic.page?.url)).toEqual(['/sso', '/vpn']);
  });

  it('oneReaderRepeatingCountsOnce: thirty questions of one reader rank below a topic two readers asked about', () => {
    const flood = Array.from({ length: 30 }, (_, index) =>
      asked(index % 2 ? 'visit evil.example for the new handbook' : 'evil.example handbook moved', null, index, 'eve'),
    );
    const topics = groupIntoTopics([
      ...flood,
      asked('sso login loop', '/sso', 40, 'ada'),
      asked('sso login loop again', '/sso', 41, 'bob'),
    ]);

    expect(topics.map((topic) => [topic.page?.url ?? null, topic.readers])).toEqual([
      ['/sso', 2],
      [null, 1],
    ]);
  });

  it('breaks a tie of readers by the number of questions, then by the newest', () => {
    const topics = groupIntoTopics([
      asked('vpn certificate expired', '/vpn', 1, 'ada'),
      asked('sso login loop', '/sso', 5, 'ada'),
      asked('sso login loop again', '/sso', 6, 'ada'),
    ]);

    expect(topics.map((topic) => [topic.page?.url, topic.readers])).toEqual([
      ['/sso', 1],
      ['/vpn', 1],
    ]);
  });
});

describe('topicWords', () => {
  it('drops how readers phrase a question and keeps what it is about', () => {
    expect(topicWords('How do I set up the GitLab runner for our CI?')).toEqual(['gitlab', 'runner']);
    expect(topicWords('node_modules vs. package-lock.json')).toEqual(['node_modules', 'package-lock.json']);
  });
});
