import { useCallback, useRef } from 'react';

/**
 * Gives the focus back to a button once what it opened (a form, a question) is done, so the focus never falls to the
 * page's body. The button may be on the page still (it is focused at once) or come back with the next render (it is
 * focused as it mounts). Pass `ref` to the button and call `returnFocus` when what it opened closes.
 */
export function useFocusReturn<Element extends HTMLElement>() {
  const element = useRef<Element | null>(null);
  const pending = useRef(false);
  const ref = useCallback((node: Element | null) => {
    element.current = node;
    if (node && pending.current) {
      pending.current = false;
      node.focus();
    }
  }, []);
  const returnFocus = useCallback(() => {
    if (element.current?.isConnected) element.current.focus();
    else pending.current = true;
  }, []);
  return { ref, returnFocus };
}
