import type { Conversation } from './asked-question.js';
import { asksOverview, quotedPageTitle } from './page-overview.js';

/** Fewer words than this, a question is a follow-up whatever it says ("On Windows?"). */
const shortQuestionWords = 4;
/** A question that opens by going on from the one before it. */
const continuation = /^\W*(and|but|also|or|so|then|what about|how about|same for|what if|and if)\b/i;
/** Words that point back at what was asked before ("how long until they're deleted?"). */
const refersBack = /\b(they|them|their|theirs|those|these|ones)\b/i;
/** "it" points back too, in a short question; a longer one more often says what "it" is ("is it ok to ..."). */
const refersBackWithIt = /\b(it|its)\b/i;
const shortEnoughForIt = 8;

/** Whether a question leans on the one before it for its subject. */
export function isFollowUp(question: string): boolean {
  const words = question.split(/\s+/).filter(Boolean).length;
  return (
    words < shortQuestionWords ||
    continuation.test(question) ||
    refersBack.test(question) ||
    (words <= shortEnoughForIt && refersBackWithIt.test(question))
  );
}

/**
 * The text searched for the conversation's last question: the question, with the one before it when it leans on it
 * (`isFollowUp`). After an overview of a page ("the key points of this page"), the topic before it is that page, by its
 * title: the overview's own words say nothing of its subject. The search falls back to the question's own words when
 * the two together find no answer (`retrieveAsked`), so a new topic in a question shaped like a follow-up still is.
 */
export function searchQueryOf(conversation: Conversation, readerPageTitle?: string): string {
  const userTexts = conversation.messages
    .filter((message) => message.role === 'user')
    .map((message) => message.text.trim());
  const last = userTexts.at(-1) ?? '';
  const previous = userTexts.at(-2);
  if (!previous || !isFollowUp(last)) return last;
  const topic = asksOverview(previous) ? (quotedPageTitle(previous) ?? readerPageTitle ?? previous) : previous;
  return `${topic} ${last}`;
}
