import { absoluteLinks } from '@acme/contract/markdown-pages';
import { useAui } from '@assistant-ui/react';
import { useCallback, useEffect, useRef } from 'react';
import { copiedForMs } from './useCopiedState';

/**
 * Copies the answer's Markdown as ActionBarPrimitive.Copy does (the message's copied state for 3000 ms), but with the
 * handbook's root-relative links made absolute on this site's origin: pasted into Slack or a merge request,
 * `(/go-live-procedure#the-release-window)` would lead nowhere.
 */
export function useCopyAnswer(): () => void {
  const aui = useAui();
  const timer = useRef<number | undefined>(undefined);
  useEffect(
    () => () => {
      if (timer.current === undefined) return;
      window.clearTimeout(timer.current);
      aui.message.setIsCopied(false);
    },
    [aui],
  );
  return useCallback(() => {
    const text = aui.message.getCopyText();
    if (!text) return;
    // Written inside the press itself: browsers allow the clipboard only during the reader's gesture.
    navigator.clipboard.writeText(absoluteLinks(text, window.location.origin)).then(
      () => {
        aui.message.setIsCopied(true);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => {
          timer.current = undefined;
          aui.message.setIsCopied(false);
        }, copiedForMs);
      },
      // A refused clipboard leaves the button as it was: the reader can select the text instead.
      () => undefined,
    );
  }, [aui]);
}
