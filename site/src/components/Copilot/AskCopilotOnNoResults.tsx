import { useEffect } from 'react';
import { siteFacts } from '../../../site.config';
import { askCopilot } from './ask-copilot';

const buttonClass = 'ask-copilot-on-no-results';

function offer(empty: Element, input: HTMLInputElement): void {
  if (empty.querySelector(`.${buttonClass}`) || empty.nextElementSibling?.classList.contains(buttonClass)) return;
  const query = input.value.trim();
  if (!query) return;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `${buttonClass} button button--sm button--primary margin-top--sm`;
  button.textContent = `Ask ${siteFacts.assistantName}`;
  // No query in its name: the same button stays while the reader edits the query, and the click sends the new one.
  button.title = `Ask ${siteFacts.assistantName} this question`;
  button.dataset.testid = 'ask-copilot-from-search';
  // Keep the focus in the search box until the click lands, or the dropdown closes under the pointer.
  button.addEventListener('mousedown', (event) => event.preventDefault());
  button.addEventListener('click', () => {
    askCopilot(input.value.trim());
    input.blur();
  });
  if (empty.tagName === 'P') empty.after(button);
  else empty.append(document.createElement('br'), button);
}

/** The search plugin's own "No results" texts: the navbar dropdown's block, and the /search page's paragraph. */
const searchPageNoResults = 'No documents were found';

/**
 * The search plugin draws its dropdown outside React (autocomplete.js), so the offer is added to its "No results"
 * block whenever that block appears.
 */
export function AskCopilotOnNoResults(): null {
  useEffect(() => {
    const observer = new MutationObserver(() => {
      const input = document.querySelector<HTMLInputElement>('input.navbar__search-input');
      const empty = document.querySelector('.navbar [class*="noResults"]');
      if (input && empty) offer(empty, input);
    });
    // The dropdown lives in the navbar; watching only there keeps streamed answers from waking the observer.
    const navbar = document.querySelector('.navbar');
    if (navbar) observer.observe(navbar, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return null;
}

/** The same offer on the /search page, under its "No documents were found" paragraph, with the page's query. */
export function AskCopilotOnEmptySearchPage(): null {
  useEffect(() => {
    // The search page has no <main>: its content sits in the layout's main wrapper.
    const main = document.querySelector('.main-wrapper') ?? document.querySelector('main');
    if (!main) return;
    const look = () => {
      const input = main.querySelector<HTMLInputElement>('input[type="search"], input');
      const empty = [...main.querySelectorAll('p')].find((paragraph) => paragraph.textContent === searchPageNoResults);
      if (input && empty) offer(empty, input);
    };
    const observer = new MutationObserver(look);
    observer.observe(main, { childList: true, subtree: true });
    look();
    return () => observer.disconnect();
  }, []);
  return null;
}
