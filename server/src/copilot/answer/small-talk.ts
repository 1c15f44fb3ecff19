/**
 * The answer to a message with nothing in it to look for ("hi", "good morning"): every word everyday English. Quoting
 * the sections that happen to hold "hi" answered a greeting with a curl snippet.
 */
export const greetingAnswer =
  'Hi! I am Dev Copilot: I answer from Acme\'s developer handbook and link the exact sections I quote. Ask me something like "How do I set up my laptop?" or "How do I deploy to staging?", or paste an error message or a screenshot of it.';

/** The answer to thanks or an "ok": greeted again, the reader would read their thanks as unheard. */
export const thanksAnswer = "You're welcome! Ask me anything else about the handbook.";

/** The answer to a question about Dev Copilot itself ("what is this?", "what can you do?"). */
export const aboutAnswer =
  'I am Dev Copilot, the assistant of Acme\'s developer handbook. I answer your questions from the handbook and link the exact sections I quote; I read the text in a screenshot you paste, such as an error message; and I keep your chats, so you can come back to them. Ask me something like "How do I deploy to staging?"';

const wordSet = (words: string) => new Set(words.split(' '));
/** Words that thank or acknowledge, one of which a message of thanks holds. */
const thanking = wordSet(
  'thanks thank thx ty cheers appreciated appreciate ok okay k cool great nice perfect awesome brilliant excellent ' +
    'good understood helpful helped helps wonderful super',
);
/** Words that go with them ("thank you so much", "got it", "that helps a lot"); nothing a question needs. */
const alongThanks = wordSet(
  'you u so very much a lot lots many that it got all right alright sounds really thats this was is makes sense',
);

/** Questions about the assistant itself, whatever came before them. */
const aboutCopilot = [
  /^(?:hi |hello |hey )?(?:who|what) (?:are|r) (?:you|u)(?: for)?$/,
  /^what (?:is|s) (?:dev )?copilot$/,
  /^whats (?:dev )?copilot$/,
  /^what (?:can|do) (?:you|u) do(?: for me)?$/,
  /^how (?:can|do) (?:you|u) (?:help|work)(?: me)?$/,
  /^what can i ask(?: you| u)?$/,
  /^help$/,
];
/** "What is this?": about the assistant when it leans on nothing the handbook answers (see `smallTalkAnswerTo`). */
const whatIsThis = /^(?:what (?:is|s) this|whats this)(?: thing| chat| assistant| bot| widget)?$/;

/** The message's words, lowercase, without punctuation or emoji: "Great, thanks!" is "great thanks". */
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The whole message thanks or acknowledges ("thanks!", "ok thanks", "great, thank you"), asking nothing. */
function isThanks(text: string): boolean {
  if (text.includes('?')) return false;
  const words = wordsOf(text).split(' ').filter(Boolean);
  return words.some((word) => thanking.has(word)) && words.every((word) => thanking.has(word) || alongThanks.has(word));
}

/** The message is small talk that leans on no question before it: thanks, or a question about Dev Copilot. */
export const isSmallTalkOnItsOwn = (text: string) =>
  isThanks(text) || aboutCopilot.some((pattern) => pattern.test(wordsOf(text)));

/**
 * The answer to small talk in the reader's own words (`asked`), or undefined for a question to search. Thanks and
 * questions about Dev Copilot are small talk whatever the search found; "what is this?" and anything else are only
 * when every word of what was searched is everyday English (`nothingToLookFor`).
 */
export function smallTalkAnswerTo(asked: string, nothingToLookFor: boolean): string | undefined {
  if (isThanks(asked)) return thanksAnswer;
  if (aboutCopilot.some((pattern) => pattern.test(wordsOf(asked)))) return aboutAnswer;
  if (!nothingToLookFor) return undefined;
  return whatIsThis.test(wordsOf(asked)) ? aboutAnswer : greetingAnswer;
}
