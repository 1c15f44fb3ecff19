import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import styles from './SideScroll.module.css';

type Hidden = { before: boolean; after: boolean };

/** Whether the element hides content to its left or right; kept up to date as it scrolls or resizes. */
function useHiddenSides(scroller: RefObject<HTMLElement | null>): Hidden {
  const [hidden, setHidden] = useState<Hidden>({ before: false, after: false });
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const before = element.scrollLeft > 1;
      const after = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setHidden((current) => (current.before === before && current.after === after ? current : { before, after }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, [scroller]);
  return hidden;
}

/**
 * Wide content (a table, a long code line) in the narrow chat: it scrolls sideways in its own box, which shades the
 * side that hides more and takes the keyboard focus (a keyboard reader can scroll it too, WCAG 2.1.1). Words are never
 * broken to make it fit.
 */
export function SideScroll({ children, label }: { children: ReactNode; label: string }): ReactNode {
  const box = useRef<HTMLDivElement>(null);
  const { before, after } = useHiddenSides(box);
  return (
    <div className={styles.sideScroll} data-testid="side-scroll">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1) */}
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a table or code */}
      <div ref={box} className={styles.box} tabIndex={0} role="group" aria-label={label}>
        {children}
      </div>
      {before && <span className={styles.moreBefore} aria-hidden="true" />}
      {after && <span className={styles.moreAfter} aria-hidden="true" data-testid="scroll-cue" />}
    </div>
  );
}
