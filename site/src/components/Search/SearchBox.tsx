import Link from '@docusaurus/Link';
import { useHistory, useLocation } from '@docusaurus/router';
import clsx from 'clsx';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import hidden from '../../css/visually-hidden.module.css';
import { askCopilot } from '../Copilot/ask-copilot';
import { AskCopilotOption } from './AskCopilotButton';
import { CorrectedQuery } from './CorrectedQuery';
import { Highlighted } from './Highlighted';
import { MissingWords } from './MissingWords';
import {
  maxSearchQueryCharacters,
  pathOf,
  reportResultOpened,
  searchContextOf,
  searchedFor,
  searchPageUrl,
} from './search-api';
import styles from './styles.module.css';
import { useDocsSearch } from './useDocsSearch';

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The navbar search: suggestions from the server's search as the reader types (8 at most, each with its path),
 * Ctrl/Cmd+K to focus, arrows and Enter to choose, Escape to close, and the full results one click away.
 */
export function SearchBox(): ReactNode {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const history = useHistory();
  const { pathname } = useLocation();
  const context = searchContextOf(pathname);
  const state = useDocsSearch(query);
  const results = 'results' in state ? state.results : [];
  // "Ask Dev Copilot" follows the hits as one more option, at this index: once the search is done, beside hits, or
  // when the search refused the query for a reason of its own (its rate limit): the question may still be asked.
  const askable = state.status === 'done' || results.length > 0 || (state.status === 'failed' && state.askable);
  const askIndex = askable ? results.length : -1;
  const lastOption = askIndex >= 0 ? askIndex : results.length - 1;
  const [shortcut, setShortcut] = useState('Ctrl K');

  useEffect(() => {
    if (isMac()) setShortcut('⌘ K');
    const focusOnShortcut = (event: globalThis.KeyboardEvent) => {
      // Some keydown events (autofill) carry no key.
      if ((event.ctrlKey || event.metaKey) && event.key?.toLowerCase() === 'k') {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', focusOnShortcut);
    return () => window.removeEventListener('keydown', focusOnShortcut);
  }, []);

  const go = (url: string) => {
    setOpen(false);
    input.current?.blur();
    history.push(url);
  };
  const ask = () => {
    askCopilot(query.trim());
    setOpen(false);
    input.current?.blur();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.max(-1, Math.min(lastOption, current + step)));
    } else if (event.key === 'Enter' && !event.nativeEvent.isComposing && query.trim()) {
      event.preventDefault();
      const chosen = results[active];
      if (active >= 0 && active === askIndex) ask();
      else {
        if (chosen) reportResultOpened(query);
        go(chosen ? chosen.url : searchPageUrl(query.trim()));
      }
    } else if (event.key === 'Escape') {
      if (open && query) setOpen(false);
      else input.current?.blur();
    }
  };
  const showDropdown = open && query.trim() !== '';
  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <search
      className={styles.searchBox}
      // Closes when the focus leaves the box and its dropdown, so Tab reaches the dropdown's links.
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
    >
      <input
        ref={input}
        type="search"
        className="navbar__search-input"
        placeholder="Search"
        aria-label="Search the handbook"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showDropdown}
        aria-controls={listId}
        aria-activedescendant={active >= 0 ? optionId(active) : undefined}
        aria-keyshortcuts="Control+K Meta+K"
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(-1);
          setOpen(true);
        }}
        maxLength={maxSearchQueryCharacters}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      {!query && <kbd className={styles.shortcut}>{shortcut}</kbd>}
      <span className={hidden.visuallyHidden} aria-live="polite">
        {showDropdown && state.status === 'done'
          ? results.length
            ? `${results.length} suggestion${results.length === 1 ? '' : 's'}${searchedFor(query, state.corrected)}`
            : 'No results'
          : ''}
      </span>
      {showDropdown && (
        // The dropdown keeps the focus in the box while the pointer works in it, or it would close under the click.
        // biome-ignore lint/a11y/noStaticElementInteractions: nothing here is operated by this handler
        <div className={styles.dropdown} data-testid="search-dropdown" onMouseDown={(event) => event.preventDefault()}>
          <CorrectedQuery query={query} state={state} />
          <MissingWords query={query} state={state} />
          {state.status === 'done' && results.length === 0 && <p className={styles.noResults}>No results</p>}
          <div role="listbox" id={listId} aria-label="Suggestions" className={styles.options}>
            {results.map((result, index) => (
              // The ARIA combobox pattern: the focus stays in the input, which points at the active option. Each option
              // is the link itself, so no control sits inside another (axe nested-interactive).
              <Link
                key={result.url}
                id={optionId(index)}
                role="option"
                to={result.url}
                tabIndex={-1}
                aria-selected={index === active}
                className={clsx(styles.hit, index === active && styles.activeOption)}
                onMouseEnter={() => setActive(index)}
                onClick={() => {
                  reportResultOpened(query);
                  setOpen(false);
                }}
              >
                <span className={styles.hitTitle}>
                  <Highlighted pieces={result.title} />
                </span>
                <span className={styles.hitPath}>{pathOf(result)}</span>
                {result.snippet.length > 0 && (
                  <span className={styles.hitSnippet}>
                    <Highlighted pieces={result.snippet} />
                  </span>
                )}
              </Link>
            ))}
            {askIndex >= 0 && (
              <AskCopilotOption
                id={optionId(askIndex)}
                active={active === askIndex}
                afterHits={results.length > 0}
                onPointed={() => setActive(askIndex)}
                onAsk={ask}
              />
            )}
          </div>
          {state.status === 'failed' && <p className={styles.noResults}>{state.message}</p>}
          <div className={styles.footer}>
            <Link to={searchPageUrl(query.trim())} onClick={() => setOpen(false)}>
              See all results
            </Link>
            {context && (
              <Link to={searchPageUrl(query.trim(), context.path)} onClick={() => setOpen(false)}>
                See all results in {context.label}
              </Link>
            )}
          </div>
        </div>
      )}
    </search>
  );
}
