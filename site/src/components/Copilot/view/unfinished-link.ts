/** A link at the end of a streaming answer that is still being written: `[BigQuer`, `[BigQuery](/big`, `**[Tit`. */
const unfinishedLink = /(\*{1,2})?\[[^\]\n]*(\](\([^)\s]*)?)?$/;

/**
 * What the widget shows of an answer still streaming: the text with a link still being written held back until it is
 * whole, so the reader never sees raw markdown (`[BigQuer`) flash before it turns into a link. A finished answer is
 * shown as it is: only its revealed prefix passes through here.
 */
export function withoutUnfinishedLink(text: string): string {
  const found = unfinishedLink.exec(text);
  return found ? text.slice(0, found.index) : text;
}
