import Link from '@docusaurus/Link';
import { useHistory, useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Layout from '@theme/Layout';
import { type ReactNode, useEffect, useState } from 'react';
import { AskCopilotButton } from './AskCopilotButton';
import { CorrectedQuery } from './CorrectedQuery';
import { Highlighted } from './Highlighted';
import { MissingWords } from './MissingWords';
import { decodedPath, maxSearchQueryCharacters, pathOf, reportResultOpened, searchPageUrl } from './search-api';
import styles from './styles.module.css';
import { useDocsSearch } from './useDocsSearch';

/** /search?q=&ctx=&version=: every result for a query, optionally only under one folder of the docs. */
export function SearchResultsPage(): ReactNode {
  const location = useLocation();
  const history = useHistory();
  // The server renders the page without its query (it never sees one): the first render in the browser must match it,
  // so the query is read once hydration is over.
  const isBrowser = useIsBrowser();
  const search = isBrowser ? location.search : '';
  const parameters = new URLSearchParams(search);
  // A ctx the server would refuse (not a path) is dropped: the page searches everything instead.
  const givenContext = parameters.get('ctx') ?? undefined;
  const context =
    givenContext && /^\/[^?#]*$/.test(givenContext) && givenContext.length <= 200 ? givenContext : undefined;
  const version = parameters.get('version') ?? undefined;
  const [query, setQuery] = useState('');
  useEffect(() => setQuery(new URLSearchParams(search).get('q') ?? ''), [search]);
  const state = useDocsSearch(query, { limit: 50, context });
  const results = 'results' in state ? state.results : [];
  const title = query.trim() ? `Search results for "${query.trim()}"` : 'Search the handbook';
  // Until the first results (or "No results") arrive the page would be blank; results kept from the query before stay.
  const searching = query.trim() !== '' && results.length === 0 && state.status !== 'done' && state.status !== 'failed';

  return (
    <Layout title={title}>
      <main className="container margin-vert--lg">
        <h1>{title}</h1>
        <input
          type="search"
          className={styles.pageInput}
          aria-label="Search the handbook"
          placeholder="Type a word or a question"
          maxLength={maxSearchQueryCharacters}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            history.replace(searchPageUrl(event.target.value, context, version));
          }}
        />
        {context && (
          <p>
            Only pages under <code>{decodedPath(context)}</code>.{' '}
            <Link to={searchPageUrl(query, undefined, version)}>Search all pages</Link>
          </p>
        )}
        {/* Always there, so a screen reader hears what is put in it. */}
        <div role="status" aria-live="polite" data-testid="search-status">
          {searching && <p>Searching…</p>}
        </div>
        {state.status === 'failed' && (
          <div>
            <p role="alert">{state.message}</p>
            {state.askable && <AskCopilotButton query={query} />}
          </div>
        )}
        {state.status === 'done' && results.length === 0 && (
          <div>
            <p>No results for "{query.trim()}".</p>
            <AskCopilotButton query={query} />
          </div>
        )}
        <CorrectedQuery query={query} state={state} />
        <MissingWords query={query} state={state} />
        {results.map((result) => (
          <article key={result.url} className={styles.result} data-testid="search-result">
            <h2>
              <Link to={result.url} onClick={() => reportResultOpened(query)}>
                <Highlighted pieces={result.title} />
              </Link>
            </h2>
            <p className={styles.resultPath}>{pathOf(result)}</p>
            {result.snippet.length > 0 && (
              <p>
                <Highlighted pieces={result.snippet} />
              </p>
            )}
          </article>
        ))}
      </main>
    </Layout>
  );
}
