import { MessagePartPrimitive } from '@assistant-ui/react';
import { lazy, type ReactNode, Suspense } from 'react';
import styles from './AssistantMessage.module.css';

const loadMarkdownText = () => import('./MarkdownText');
const MarkdownText = lazy(() => loadMarkdownText().then((module) => ({ default: module.MarkdownText })));

/** Fetches the markdown renderer once the chat is on screen, so the composer never waits for it. */
export function preloadMarkdownText(): void {
  void loadMarkdownText().catch(() => {
    // The first answer to render asks for it again.
  });
}

/**
 * An answer's text: its markdown (react-markdown with GFM, a chunk of its own that the composer does not wait for),
 * or, for the moment that chunk is still on its way, the plain text of the answer.
 */
export function LazyMarkdownText(): ReactNode {
  return (
    <Suspense
      fallback={
        <p className={styles.plainText}>
          <MessagePartPrimitive.Text />
        </p>
      }
    >
      <MarkdownText />
    </Suspense>
  );
}
