import { queryWords, termsOfWord } from '../../search/analyze.js';
import { answerKindsOf } from '../../search/answer-kind.js';
import type { Retrieval } from '../../search/coverage.js';
import type { SearchHit } from '../../search/engine.js';
import { unitsOf } from '../../search/section-units.js';
import { unitHoldsKind } from '../../search/unit-scores.js';
import type { Conversation } from './asked-question.js';
import { asksOverview, quotedPageTitle } from './page-overview.js';
import { isSmallTalkOnItsOwn } from './small-talk.js';

/** Fewer words than this, a question is a follow-up whatever it says ("On Windows?"). */
const shortQuestionWords = 4;
/** A question that opens by going on from the one before it. */
const continuation = /^\W*(and|but|also|or|so|then|what about|how about|same for|what if|and if)\b/i;
/** Words that point back at what was asked before ("how long until they're deleted?"). */
const refersBack = /\b(they|them|their|theirs|those|these|ones)\b/i;
/** "it" points back too, in a short question; a longer one more often says what "it" is ("is it ok to ..."). */
const refersBackWithIt = /\b(it|its)\b/i;
const shortEnoughForIt = 8;

/**
 * Whether a question leans on the one before it for its subject. Thanks and a question about Dev Copilot never do,
 * short as they are: "thanks!" searched with the question before it answered that question again.
 */
export function isFollowUp(question: string): boolean {
  if (isSmallTalkOnItsOwn(question)) return false;
  const words = question.split(/\s+/).filter(Boolean).length;
  return (
    words < shortQuestionWords ||
    continuation.test(question) ||
    refersBack.test(question) ||
    (words <= shortEnoughForIt && refersBackWithIt.test(question))
  );
}

/** Follow-ups of follow-ups whose topics are gone back through ("tell me more" after "how long until they're gone?"). */
const topicsBack = 2;

/**
 * The text searched for the conversation's last question: the question, with the one before it when it leans on it
 * (`isFollowUp`), and so on while that one was a follow-up too (`topicsBack`): "tell me more" after "how long until
 * they're gone?" is about what the first question asked. After an overview of a page ("the key points of this page"),
 * the topic before it is that page, by its title: the overview's own words say nothing of its subject. The search falls
 * back to the question's own words when the two together find no answer (`retrieveAsked`), so a new topic in a
 * question shaped like a follow-up still is.
 */
export function searchQueryOf(conversation: Conversation, readerPageTitle?: string): string {
  const userTexts = conversation.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.text.trim());
  return withTopic(userTexts, readerPageTitle, topicsBack);
}

function withTopic(userTexts: readonly string[], readerPageTitle: string | undefined, back: number): string {
  const last = userTexts.at(-1) ?? '';
  const previous = userTexts.at(-2);
  if (!previous || !isFollowUp(last)) return last;
  const topic = asksOverview(previous)
    ? (quotedPageTitle(previous) ?? readerPageTitle ?? previous)
    : back > 0
      ? withTopic(userTexts.slice(0, -1), readerPageTitle, back - 1)
      : previous;
  return `${topic} ${last}`;
}

/** The handbook's links in an answer's markdown: `[text](/page#anchor)`, as the answers write them. */
const siteLinks = /\]\((\/[^)\s]*)\)/g;

/**
 * A follow-up's sections, with those the answer before it already quoted moved behind the others when the follow-up
 * asks for a kind of answer they do not hold (a duration, a number, a command...) and names nothing of its own they hold:
 * searched together with the question before it, "how long until they're gone?" finds that question's sections first,
 * and quoting them again repeats the answer word for word where the reader asks what it did not say. A follow-up that
 * wants more of the same ("tell me more", "give an example", "why?") asks for no such kind and keeps them first, as
 * does one naming something they hold ("and on Windows?"). `addressOf` reads a link as a section's address.
 */
export function aheadOfWhatWasQuoted(
  retrieval: Retrieval,
  answerBefore: string | undefined,
  addressOf: (url: string) => string | undefined,
): Retrieval {
  const kinds = answerKindsOf(retrieval.asked);
  if (!answerBefore || retrieval.asked === retrieval.question || kinds.length === 0) return retrieval;
  const quoted = new Set([...answerBefore.matchAll(siteLinks)].flatMap(([, url]) => addressOf(url ?? '') ?? []));
  const ownWords = new Set(queryWords(retrieval.asked).flatMap((word) => termsOfWord(word)));
  const subject = retrieval.terms.filter((term) => !term.generic && !term.expansion && ownWords.has(term.term));
  const holdsAsked = (hit: SearchHit) =>
    unitsOf(hit).some((unit) => kinds.some((kind) => unitHoldsKind(hit, unit, kind)));
  const repeats = (hit: SearchHit) =>
    quoted.has(hit.url) && !subject.some((term) => hit.matchedQueryTerms.has(term.term)) && !holdsAsked(hit);
  const fresh = retrieval.hits.filter((hit) => !repeats(hit));
  if (fresh.length === 0 || fresh.length === retrieval.hits.length) return retrieval;
  return { ...retrieval, hits: [...fresh, ...retrieval.hits.filter(repeats)] };
}

/**
 * The sections for a Refresh, with the section each earlier answer to the question led with moved behind the others:
 * without a model the same question finds the same sections, and a Refresh that repeats its answer word for word
 * gives the reader nothing, where they ask for another take. The rest keep their order (the earlier answers' further
 * quotes may lead a new one); with every section led with already, the order stays.
 */
export function behindEarlierLeads(
  retrieval: Retrieval,
  earlierAnswers: readonly string[] | undefined,
  addressOf: (url: string) => string | undefined,
): Retrieval {
  if (!earlierAnswers?.length) return retrieval;
  const leads = new Set(
    earlierAnswers.flatMap((answer) => {
      const [first] = answer.matchAll(siteLinks);
      return (first && addressOf(first[1] ?? '')) || [];
    }),
  );
  const fresh = retrieval.hits.filter((hit) => !leads.has(hit.url));
  if (fresh.length === 0 || fresh.length === retrieval.hits.length) return retrieval;
  return { ...retrieval, hits: [...fresh, ...retrieval.hits.filter((hit) => leads.has(hit.url))] };
}
