import { words } from './analyze.js';

/**
 * Opposite actions a question and a heading may name: asked how to turn a policy on, the section on turning it off is
 * the wrong answer, however many words they share. Each pair is [one way, the other], as words of the text.
 */
const opposites: Array<[RegExp, RegExp]> = [
  [
    /\b(enable[sd]?|enabling|turn(s|ed|ing)? (\w+ ){0,3}on|switch(es|ed|ing)? (\w+ ){0,3}on|activat(e|es|ed|ing))\b/,
    /\b(disable[sd]?|disabling|turn(s|ed|ing)? (\w+ ){0,3}off|switch(es|ed|ing)? (\w+ ){0,3}off|deactivat(e|es|ed|ing))\b/,
  ],
  [/\b(add(s|ed|ing)?)\b/, /\b(remov(e|es|ed|ing)|delet(e|es|ed|ing))\b/],
  [
    /\b(allow(s|ed|ing)?|permit(s|ted|ting)?)\b/,
    /\b(forbid(s|den|ding)?|disallow(s|ed|ing)?|block(s|ed|ing)?|den(y|ies|ied|ying)|prohibit(s|ed|ing)?)\b/,
  ],
  [/\b(install(s|ed|ing)?)\b/, /\b(uninstall(s|ed|ing)?)\b/],
  [/\b(grant(s|ed|ing)?)\b/, /\b(revok(e|es|ed|ing))\b/],
  [/\b(opt(s|ed|ing)? in)\b/, /\b(opt(s|ed|ing)? out)\b/],
];

/** For each pair of opposites, which side a text takes: 1, -1, or 0 for neither or both. */
function sidesOf(text: string): number[] {
  const plain = ` ${words(text).join(' ')} `;
  return opposites.map(([one, other]) => Number(one.test(plain)) - Number(other.test(plain)));
}

/** Whether a heading names the opposite of what the question asks to do (`enable` against `disable`). */
export function contradicts(question: string, heading: string): boolean {
  const asked = sidesOf(question);
  const named = sidesOf(heading);
  return asked.some((side, index) => side !== 0 && named[index] === -side);
}

/** How close in score a section must be to stand in for a better-ranked one that names the opposite action. */
const standInShare = 0.5;

/**
 * The ranked sections with any whose heading names the opposite of the question's action moved below the next one
 * that does not, when that one ranks close enough.
 */
export function withPolarityOf<Hit extends { score: number; heading?: string | undefined; pageTitle: string }>(
  question: string,
  hits: readonly Hit[],
): Hit[] {
  if (sidesOf(question).every((side) => side === 0)) return [...hits];
  const ranked = [...hits];
  for (let position = 0; position < Math.min(3, ranked.length); position += 1) {
    const hit = ranked[position];
    if (!hit || !contradicts(question, `${hit.pageTitle} ${hit.heading ?? ''}`)) continue;
    const standIn = ranked.findIndex(
      (other, index) =>
        index > position &&
        other.score >= hit.score * standInShare &&
        !contradicts(question, `${other.pageTitle} ${other.heading ?? ''}`),
    );
    if (standIn === -1) continue;
    const [moved] = ranked.splice(standIn, 1);
    if (moved) ranked.splice(position, 0, moved);
  }
  return ranked;
}
