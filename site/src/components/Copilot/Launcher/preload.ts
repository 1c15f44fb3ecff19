import { type RefObject, useEffect } from 'react';

/** How near (px from the launcher's centre) the pointer comes before the chat's code is fetched. */
const nearPixels = 240;

type Connection = { saveData?: boolean; effectiveType?: string };

/** Spec section 4: nothing is fetched ahead on a 2g or data-saver connection. */
function fetchAheadAllowed(): boolean {
  const connection = (navigator as Navigator & { connection?: Connection }).connection;
  return !connection?.saveData && !/2g/.test(connection?.effectiveType ?? '');
}

/**
 * Fetches the chat's code before the first click, so opening it waits on nothing: once the page is idle, or when the
 * pointer comes near the launcher (the launcher's own hover and focus also fetch it). `load` is idempotent.
 */
export function usePreloadChat(
  launcher: RefObject<HTMLElement | null>,
  load: () => Promise<unknown>,
  enabled: boolean,
) {
  useEffect(() => {
    if (!enabled || !fetchAheadAllowed()) return;
    let done = false;
    const preload = () => {
      if (done) return;
      done = true;
      stop();
      void load().catch(() => {
        // A failed fetch ahead is retried by the click itself.
      });
    };
    const idle =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(preload, { timeout: 4000 })
        : window.setTimeout(preload, 2000);
    let frame = 0;
    const onPointerMove = (event: PointerEvent) => {
      if (frame) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        const box = launcher.current?.getBoundingClientRect();
        if (!box) return;
        const distance = Math.hypot(event.clientX - (box.x + box.width / 2), event.clientY - (box.y + box.height / 2));
        if (distance < nearPixels) preload();
      });
    };
    function stop() {
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
      window.cancelAnimationFrame(frame);
      window.removeEventListener('pointermove', onPointerMove);
    }
    window.addEventListener('pointermove', onPointerMove, { passive: true });
    return stop;
  }, [launcher, load, enabled]);
}
