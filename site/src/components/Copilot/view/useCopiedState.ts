import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec section 4: a copied state lasts 3000 ms, then reverts. */
export const copiedForMs = 3000;

/** `[copied, markCopied]` for copy buttons outside the action bar (which has its own). */
export function useCopiedState(): [boolean, () => void] {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const markCopied = useCallback(() => {
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), copiedForMs);
  }, []);
  return [copied, markCopied];
}
