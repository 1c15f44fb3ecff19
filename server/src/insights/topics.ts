import { createRequire } from 'node:module';
import type { InsightsPage, UnansweredTopic } from '@acme/contract';
import type { UnansweredQuestion } from './queries.js';

const require = createRequire(import.meta.url);

/**
 * Words that say nothing about a topic: how readers phrase questions, not what they ask about. English stopwords
 * (the stopwords-iso list: "just", "ask", "need") and chat's own.
 */
const fillerWords = new Set([
  ...((require('stopwords-iso') as Record<string, string[]>).en ?? []),
  ...'use using used get got set make need want know tell show please help way ok yes'.split(' '),
]);

/** The words of a question that name its subject, lower-cased, each once. */
export function topicWords(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 2 && !fillerWords.has(word)))];
}

/**
 * The page a question's topic would extend: the closest page of one the handbook only came close to. One it does not
 * cover at all ("none") has a nearest page only by shared words (the office wifi's nearest was WSL's page): it needs
 * a page of its own.
 */
const pageOf = (question: UnansweredQuestion): InsightsPage | null =>
  question.confidence === 'closest' && question.nearestPageUrl
    ? { url: question.nearestPageUrl.split('#')[0] || question.nearestPageUrl, title: question.nearestPageTitle ?? '' }
    : null;

type Cluster = { page: InsightsPage | null; words: Map<string, number>; questions: UnansweredQuestion[] };

/**
 * Groups unanswered questions into topics: near the same page, and sharing a word with what the topic's questions
 * already say (two words when both have several). The topics most readers asked about first (one reader asking again
 * and again counts once), ties by more questions, then by the newest question; each with up to `examples` questions,
 * newest first, and the page to extend. Greedy and order-bound on purpose: a maintainer reads
 * the topics to decide what to write, so a stable, explainable grouping beats a finer one.
 */
export function groupIntoTopics(
  questions: readonly UnansweredQuestion[],
  { examples = 3, limit = 20 }: { examples?: number; limit?: number } = {},
): UnansweredTopic[] {
  const clusters: Cluster[] = [];
  const newestFirst = [...questions].sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime());
  for (const question of newestFirst) {
    const page = pageOf(question);
    const words = topicWords(question.question);
    const needed = words.length > 2 ? 2 : 1;
    const cluster = clusters.find(
      (candidate) =>
        candidate.page?.url === page?.url &&
        words.filter((word) => candidate.words.has(word)).length >= Math.min(needed, candidate.words.size),
    );
    const target = cluster ?? { page, words: new Map<string, number>(), questions: [] };
    if (!cluster) clusters.push(target);
    target.questions.push(question);
    for (const word of words) target.words.set(word, (target.words.get(word) ?? 0) + 1);
  }
  return clusters
    .map((cluster) => ({ cluster, readers: new Set(cluster.questions.map((question) => question.reader)).size }))
    .sort(
      (a, b) =>
        b.readers - a.readers ||
        b.cluster.questions.length - a.cluster.questions.length ||
        newest(b.cluster) - newest(a.cluster),
    )
    .slice(0, limit)
    .map(({ cluster, readers }) => ({
      label: labelOf(cluster),
      page: cluster.page,
      count: cluster.questions.length,
      readers,
      examples: [...new Set(cluster.questions.map((question) => question.question))].slice(0, examples),
    }));
}

const newest = (cluster: Cluster) => cluster.questions[0]?.askedAt.getTime() ?? 0;

/**
 * The topic's three most frequent words, most frequent first, and words as frequent in the order the newest question
 * says them ("wifi password office", not "office password wifi").
 */
function labelOf(cluster: Cluster): string {
  const said = topicWords(cluster.questions[0]?.question ?? '');
  const place = (word: string) => (said.includes(word) ? said.indexOf(word) : said.length);
  const words = [...cluster.words]
    .sort((a, b) => b[1] - a[1] || place(a[0]) - place(b[0]) || a[0].localeCompare(b[0]))
    .slice(0, 3);
  return words.map(([word]) => word).join(' ') || (cluster.questions[0]?.question.slice(0, 60) ?? '');
}
