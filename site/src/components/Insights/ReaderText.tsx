import type { ReactNode } from 'react';

/**
 * A string a reader wrote (a comment, a question, a search), shown as typed but isolated: direction characters in it
 * (U+202E, the right-to-left override) reorder only its own text, never the quotes and words around it, and it reads
 * in the direction of its own first letter.
 */
export function ReaderText({ children }: { children: string }): ReactNode {
  return <bdi dir="auto">{children}</bdi>;
}
