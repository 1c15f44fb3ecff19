import { type RefCallback, useCallback, useLayoutEffect, useMemo, useRef } from 'react';

/** What `useFocusReturn` gives: a ref for the element, and a call that gives it the focus. */
export type FocusReturn = { readonly ref: RefCallback<HTMLElement>; readonly returnFocus: () => void };

/**
 * Gives the focus to an element once what replaced it (a form, a question) is done, so the focus never falls to the
 * page's body: the button that opened a choice, or the thanks that takes a form's place. The element may be on the
 * page still (it takes the focus at once) or come back with the next render (it takes it as it mounts). Pass `ref` to
 * the element and call `returnFocus` when what replaced it closes.
 */
export function useFocusReturn(): FocusReturn {
  const element = useRef<HTMLElement | null>(null);
  const pending = useRef(false);
  const ref = useCallback((node: HTMLElement | null) => {
    element.current = node;
    if (node && pending.current) {
      pending.current = false;
      node.focus();
    }
  }, []);
  // The render that was to bring the element back is over (its ref ran before this): if it did not come back, a
  // later return must not take the focus from wherever the reader has gone since. A layout effect, so it runs in
  // that render's commit, never late into the next one.
  useLayoutEffect(() => {
    pending.current = false;
  });
  return useMemo(
    () => ({
      ref,
      returnFocus: () => {
        if (element.current?.isConnected) element.current.focus();
        else pending.current = true;
      },
    }),
    [ref],
  );
}
