import { useDoc } from '@docusaurus/plugin-content-docs/client';
import { siteFacts } from '@site/site.config';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { askCopilot } from '../Copilot/ask-copilot';
import styles from './styles.module.css';

/** The page's Markdown address (site/plugins/markdown-pages): `/coding-standard/` -> `/coding-standard.md`. */
export const markdownAddressOf = (permalink: string) => `${permalink.replace(/\/+$/, '') || '/index'}.md`;

/** The question the chat's own "Ask about this page" suggestion asks (Copilot/useSuggestions.ts). */
export const pageOverviewQuestion = (title: string) => `What are the key points of the page "${title}"?`;

/**
 * A small menu beside a doc page's title (above it, on a narrow screen): copy the page as Markdown, view it as
 * Markdown, ask Dev Copilot about it. A disclosure (button + list of buttons and a link), reachable with Tab and closed
 * with Escape; nothing is fetched until "Copy" is chosen.
 */
export default function PageActions(): ReactNode {
  const { metadata } = useDoc();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('');
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const markdownAddress = markdownAddressOf(metadata.permalink);

  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  async function copyMarkdown() {
    setStatus('Copying…');
    try {
      const response = await fetch(markdownAddress, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(String(response.status));
      await navigator.clipboard.writeText(await response.text());
      setStatus('Page copied as Markdown.');
    } catch {
      setStatus('The page could not be copied; use "View as Markdown".');
    }
    setOpen(false);
    toggle.current?.focus();
  }

  return (
    <div ref={root} className={styles.pageActions} data-testid="page-actions">
      <button
        ref={toggle}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          setStatus('');
          setOpen((wasOpen) => !wasOpen);
        }}
      >
        Page actions <span aria-hidden="true">▾</span>
      </button>
      <ul id={menuId} className={styles.menu} hidden={!open}>
        <li>
          <button type="button" className={styles.item} onClick={() => void copyMarkdown()}>
            Copy page as Markdown
          </button>
        </li>
        <li>
          <a className={styles.item} href={markdownAddress} onClick={() => setOpen(false)}>
            View as Markdown
          </a>
        </li>
        <li>
          <button
            type="button"
            className={styles.item}
            onClick={() => {
              setOpen(false);
              askCopilot(pageOverviewQuestion(metadata.title));
            }}
          >
            Ask {siteFacts.assistantName} about this page
          </button>
        </li>
      </ul>
      <span role="status" className={styles.status}>
        {status}
      </span>
    </div>
  );
}
