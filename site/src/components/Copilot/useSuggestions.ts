import { useEffect, useMemo, useState } from 'react';
import type { Suggestion } from './view/Welcome';

const general: Suggestion[] = [
  { title: 'Set up my machine', prompt: 'How do I get my laptop ready on my first day?' },
  { title: 'Our code review rules', prompt: 'What is our code review process and turnaround target?' },
  { title: 'Releasing to production', prompt: 'What are the steps of the go-live procedure?' },
];

/** The title of the doc page being read, or null elsewhere (the docs landing, search, tags, the assistant page). */
function docPageTitle(): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector('.theme-doc-markdown h1, .theme-doc-markdown header h1')?.textContent?.trim() || null;
}

/**
 * The title of the doc page on screen. Read again whenever the document's <head> changes: the route changes before
 * the new page is rendered, its title after.
 */
function useDocPageTitle(): string | null {
  const [title, setTitle] = useState(docPageTitle);
  useEffect(() => {
    const update = () => setTitle(docPageTitle());
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return title;
}

/** The welcome's suggestions; on a doc page the first one asks about that page. */
export function useSuggestions(): Suggestion[] {
  const title = useDocPageTitle();
  return useMemo(() => {
    if (!title) return general;
    return [{ title: 'Ask about this page', prompt: `What are the key points of the page "${title}"?` }, ...general];
  }, [title]);
}
