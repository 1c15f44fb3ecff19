import { insightsPeriods } from '@acme/contract';
import NotFoundContent from '@theme/NotFound/Content';
import type { ReactNode } from 'react';
import { download, insightsCsv } from './insights-export';
import { PagesUsedSection, RatedDownSection, TopicsSection } from './PagesSections';
import { QuestionsSection } from './QuestionsSection';
import { SearchesSection } from './SearchesSection';
import styles from './styles.module.css';
import { useInsights } from './useInsights';
import { usePeriodInAddress } from './usePeriodInAddress';

/** The maintainers' insights: what readers ask and search for, and what the handbook does not answer. */
export default function InsightsPage(): ReactNode {
  const [days, setDays] = usePeriodInAddress();
  const state = useInsights(days);
  if (state.status === 'not-found') return <NotFoundContent />;
  return (
    <main className="container margin-vert--lg">
      <h1>Insights</h1>
      <p>What readers asked Dev Copilot and searched for, for the docs maintainers. Readers are never named.</p>
      <div className={styles.toolbar}>
        <fieldset className={styles.periods}>
          <legend>Period</legend>
          {insightsPeriods.map((period) => (
            <label key={period}>
              <input
                type="radio"
                name="insights-period"
                value={period}
                checked={days === period}
                onChange={() => setDays(period)}
              />{' '}
              {period} days
            </label>
          ))}
        </fieldset>
        {state.status === 'ready' && (
          <div className={styles.exports}>
            <button
              type="button"
              className="button button--secondary button--sm"
              onClick={() => download(`insights-${days}d.csv`, 'text/csv', insightsCsv(state.insights))}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="button button--secondary button--sm"
              onClick={() =>
                download(`insights-${days}d.json`, 'application/json', JSON.stringify(state.insights, null, 2))
              }
            >
              Export JSON
            </button>
          </div>
        )}
      </div>
      {state.status === 'loading' && <p role="status">Loading the insights…</p>}
      {state.status === 'failed' && <p role="alert">{state.message}</p>}
      {state.status === 'ready' && (
        <div data-testid="insights">
          <QuestionsSection insights={state.insights} />
          <TopicsSection insights={state.insights} />
          <PagesUsedSection insights={state.insights} />
          <RatedDownSection insights={state.insights} />
          <SearchesSection insights={state.insights} />
        </div>
      )}
    </main>
  );
}
