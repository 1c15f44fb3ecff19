/**
 * What kind of answer a question wants, read from how it is asked, and whether a quotable unit of the docs holds that
 * kind of thing: the unit with the duration, number, command, name or rule asked for goes first.
 */
export type AnswerKind = 'duration' | 'number' | 'command' | 'name' | 'rule' | 'procedure';

const askedFor: Array<[AnswerKind, RegExp]> = [
  [
    'duration',
    /\b(how long|how soon|how quickly|how often|when (do|does|is|are|will|should|must)|by when|deadline|what time|latest time|how late|how early|until when|expire|retention|how many (seconds|minutes|hours|days|weeks|months|years))\b/,
  ],
  [
    'number',
    /\b(how (many|much|big|large|fast)|what (percentage|percent|size|limit|port|price|cost|version)|which (port|version)|limit|maximum|minimum|max|min|quota|threshold|at most|at least|cost|price|score|pass mark)\b/,
  ],
  [
    'command',
    /\b(command|cli|flag|option|example|snippet|which script|what script|run|npm|npx|gcloud|firebase|shopify app|git|curl|header|env(ironment)? var(iable)?|config(uration)? key)\b/,
  ],
  ['name', /\b(who|whom|whose|which (team|person|channel|role|group|owner)|owner|owns|contact|approve|approves|ask)\b/],
  [
    'rule',
    /^(can|may|must|should|is it ok|is it allowed|am i allowed|are we allowed|do i need|do we need|is|are|(do|does|did) (i|we|you|they|it|our|the))\b|\b(must|never|allowed|ok\?|okay\?)/,
  ],
  ['procedure', /\b(how (do|can|should) (i|we|you)|steps|procedure|process|set up|setup|walk me through)\b/],
];

/** The kinds of answer a question asks for, most specific first; none for a question that says too little. */
export function answerKindsOf(question: string): AnswerKind[] {
  const asked = question.toLowerCase().replace(/\s+/g, ' ').trim();
  return askedFor.filter(([, pattern]) => pattern.test(asked)).map(([kind]) => kind);
}

const durationPattern =
  /\b\d+([.,]\d+)?\s*(ms|s|sec|seconds?|minutes?|mins?|hours?|h|days?|d|weeks?|months?|years?)\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|monthly|yearly|nightly)\b|\b\d{1,2} (january|february|march|april|may|june|july|august|september|october|november|december)\b|\b\d{1,2}:\d{2}\b/i;
const numberPattern = /\d/;
const commandPattern = /`[^`]+`|^(npm|npx|gcloud|firebase|shopify|git|curl|acme|docker|node) /m;
const namePattern =
  /@[\w.-]+|#[a-z][\w-]+|\b(tech lead|ts leader|team lead|mentor|on-call|owner|maintainers?|reviewer|approver)\b/i;
const rulePattern =
  /^\W*(yes|no)\b|\b(must|never|always|not allowed|allowed|only|cannot|can't|do not|don't|required|forbidden)\b/i;

/** Whether a unit (its markdown, and whether it is code or an item of an ordered list) holds the kind asked for. */
export function holdsKind(kind: AnswerKind, unit: { markdown: string; code: boolean; step: boolean }): boolean {
  if (kind === 'duration') return durationPattern.test(unit.markdown);
  if (kind === 'number') return numberPattern.test(unit.markdown.replace(/\]\([^)]*\)/g, ']'));
  if (kind === 'command') return unit.code || commandPattern.test(unit.markdown);
  if (kind === 'name') return namePattern.test(unit.markdown);
  if (kind === 'rule') return rulePattern.test(unit.markdown);
  return unit.step || unit.code;
}
