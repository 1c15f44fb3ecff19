import type { ReactNode } from 'react';
import type { TextPiece } from './search-api';

/** Text with the words the query matched drawn as marks. */
export function Highlighted({ pieces }: { pieces: readonly TextPiece[] }): ReactNode {
  return pieces.map((piece, index) =>
    piece.match ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: pieces never reorder
      <mark key={index}>{piece.text}</mark>
    ) : (
      piece.text
    ),
  );
}
