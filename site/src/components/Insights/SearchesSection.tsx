import type { InsightsResponse, SearchMiss } from '@acme/contract';
import type { ReactNode } from 'react';
import { ReaderText } from './ReaderText';
import { counted } from './wording';

function MissTable(props: { misses: SearchMiss[]; caption: string; testId: string }): ReactNode {
  if (props.misses.length === 0) return <p>{props.caption}: none.</p>;
  return (
    <table data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Query</th>
          <th scope="col">Readers</th>
          <th scope="col">Searches</th>
          <th scope="col">Last (UTC)</th>
        </tr>
      </thead>
      <tbody>
        {props.misses.map((miss) => (
          <tr key={miss.query}>
            <th scope="row">
              <ReaderText>{miss.query}</ReaderText>
            </th>
            <td>{miss.readers}</td>
            <td>{miss.searches}</td>
            <td>{miss.lastAt.slice(0, 16).replace('T', ' ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * What the search box did not help with: searches with no result, and results nobody opened, the queries most readers
 * searched first (one reader searching again and again counts once).
 */
export function SearchesSection({ insights }: { insights: InsightsResponse }): ReactNode {
  const { searches } = insights;
  return (
    <section aria-labelledby="insights-searches">
      <h2 id="insights-searches">Search-box queries</h2>
      <p data-testid="insights-searches-summary">
        {counted(searches.total, 'search', 'searches')}: {searches.withoutResult} found nothing, {searches.withoutClick}{' '}
        found results nobody opened.
      </p>
      <MissTable misses={searches.noResult} caption="Searches with no result" testId="insights-no-result" />
      <MissTable misses={searches.noClick} caption="Searches with no result opened" testId="insights-no-click" />
    </section>
  );
}
