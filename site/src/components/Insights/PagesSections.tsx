import type { InsightsResponse } from '@acme/contract';
import Link from '@docusaurus/Link';
import { type ReactNode, useMemo } from 'react';
import { BarChart } from './BarChart';
import { ReaderText } from './ReaderText';
import styles from './styles.module.css';
import { counted } from './wording';

/** The unanswered questions grouped into topics, most readers first, each with the page a maintainer would extend. */
export function TopicsSection({ insights }: { insights: InsightsResponse }): ReactNode {
  return (
    <section aria-labelledby="insights-topics">
      <h2 id="insights-topics">Questions the handbook does not answer</h2>
      {insights.unansweredTopics.length === 0 ? (
        <p>
          {insights.questions.total === 0
            ? 'Nobody asked Dev Copilot anything in this period.'
            : 'Every question in this period was answered.'}
        </p>
      ) : (
        <ol className={styles.cards} data-testid="insights-topics">
          {insights.unansweredTopics.map((topic) => (
            <li key={`${topic.page?.url ?? ''} ${topic.label}`} className={styles.card} data-testid="insights-topic">
              <h3 className={styles.cardTitle}>
                <ReaderText>{topic.label}</ReaderText>{' '}
                <span className={styles.count}>({counted(topic.readers, 'reader', 'readers')})</span>
              </h3>
              <ul>
                {topic.examples.map((example) => (
                  <li key={example}>
                    <ReaderText>{example}</ReaderText>
                  </li>
                ))}
              </ul>
              {topic.page ? (
                <p>
                  Extend <Link to={topic.page.url}>{topic.page.title || topic.page.url}</Link>
                </p>
              ) : (
                <p>No page came near: this needs a new page.</p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The pages answers cite most, as a chart and a table. */
export function PagesUsedSection({ insights }: { insights: InsightsResponse }): ReactNode {
  const pages = insights.pagesAnswersRestOn;
  const labels = useMemo(() => pages.map((page) => page.title || page.url), [pages]);
  const series = useMemo(
    () => [{ name: 'Answers', className: styles.answered ?? '', values: pages.map((page) => page.answers) }],
    [pages],
  );
  return (
    <section aria-labelledby="insights-pages">
      <h2 id="insights-pages">Pages answers rest on</h2>
      {pages.length === 0 ? (
        <p>No answer cited a page in this period.</p>
      ) : (
        <>
          <BarChart labels={labels} series={series} horizontal testId="insights-pages-chart" />
          <table data-testid="insights-pages">
            <caption>Answers citing each page, most first</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col">Answers</th>
              </tr>
            </thead>
            <tbody>
              {pages.map((page) => (
                <tr key={page.url}>
                  <th scope="row">
                    <Link to={page.url}>{page.title || page.url}</Link>
                  </th>
                  <td>{page.answers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/**
 * Pages whose answers most readers rated down, with what they wrote (each reader's latest comment): one reader rating
 * answer after answer counts once.
 */
export function RatedDownSection({ insights }: { insights: InsightsResponse }): ReactNode {
  return (
    <section aria-labelledby="insights-rated-down">
      <h2 id="insights-rated-down">Pages rated down</h2>
      {insights.pagesRatedDown.length === 0 ? (
        <p>No answer was rated down in this period.</p>
      ) : (
        <ol className={styles.cards} data-testid="insights-rated-down">
          {insights.pagesRatedDown.map((page) => (
            <li key={page.url} className={styles.card} data-testid="insights-rated-down-page">
              <h3 className={styles.cardTitle}>
                {page.url ? <Link to={page.url}>{page.title || page.url}</Link> : page.title}{' '}
                <span className={styles.count}>
                  ({counted(page.readers, 'reader', 'readers')}, {counted(page.ratedDown, 'rating', 'ratings')} down)
                </span>
              </h3>
              {page.comments.length > 0 && (
                <ul>
                  {page.comments.map((comment) => (
                    <li key={`${comment.at} ${comment.comment}`}>
                      “<ReaderText>{comment.comment}</ReaderText>”
                      {comment.question ? (
                        <>
                          {' '}
                          on “<ReaderText>{comment.question}</ReaderText>”
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
