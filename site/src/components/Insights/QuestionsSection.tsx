import type { InsightsResponse } from '@acme/contract';
import { type ReactNode, useMemo } from 'react';
import { BarChart } from './BarChart';
import styles from './styles.module.css';
import { noun } from './wording';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** Questions a day, stacked by answered, closest page only and not covered, with the last docs build marked. */
export function QuestionsSection({ insights }: { insights: InsightsResponse }): ReactNode {
  const { questions, lastDocsBuildAt, days } = insights;
  const labels = useMemo(() => questions.perDay.map((day) => day.day), [questions.perDay]);
  const series = useMemo(
    () => [
      { name: 'Answered', className: styles.answered ?? '', values: questions.perDay.map((day) => day.answered) },
      {
        name: 'Closest page only',
        className: styles.closest ?? '',
        values: questions.perDay.map((day) => day.closest),
      },
      { name: 'Not covered', className: styles.none ?? '', values: questions.perDay.map((day) => day.none) },
    ],
    [questions.perDay],
  );
  const buildDay = lastDocsBuildAt?.slice(0, 10);
  const markerIndex = buildDay ? labels.indexOf(buildDay) : -1;
  return (
    <section aria-labelledby="insights-questions">
      <h2 id="insights-questions">Questions a day</h2>
      <p data-testid="insights-questions-summary">
        <strong data-testid="insights-total">{questions.total}</strong> {noun(questions.total, 'question', 'questions')}{' '}
        in the last {days} days: <span data-testid="insights-answered">{questions.answered}</span> answered (
        {percent(questions.answered, questions.total)} %),{' '}
        <span data-testid="insights-closest">{questions.closest}</span> with only a closest page (
        {percent(questions.closest, questions.total)} %), <span data-testid="insights-none">{questions.none}</span> not
        covered ({percent(questions.none, questions.total)} %).
      </p>
      <p data-testid="insights-build">
        {lastDocsBuildAt
          ? `The docs being served were built ${new Date(lastDocsBuildAt).toUTCString()}${markerIndex >= 0 ? ', marked on the chart: what follows the line came after that build.' : ', before this period.'}`
          : 'When the docs were last built is not known.'}
      </p>
      <ul className={styles.legend} aria-label="Legend">
        {series.map((entry) => (
          <li key={entry.name}>
            <span className={`${styles.swatch} ${entry.className}`} aria-hidden="true" />
            {entry.name}
          </li>
        ))}
      </ul>
      <BarChart
        labels={labels}
        series={series}
        stacked
        markerAt={markerIndex >= 0 ? markerIndex : undefined}
        markerLabel="docs build"
        testId="insights-questions-chart"
      />
      <details className={styles.figures}>
        <summary>Questions a day as a table</summary>
        <table>
          <caption>Questions a day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Answered</th>
              <th scope="col">Closest page only</th>
              <th scope="col">Not covered</th>
            </tr>
          </thead>
          <tbody>
            {questions.perDay.map((day) => (
              <tr key={day.day}>
                <th scope="row">
                  {day.day}
                  {day.day === buildDay ? ' (docs build)' : ''}
                </th>
                <td>{day.answered}</td>
                <td>{day.closest}</td>
                <td>{day.none}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
