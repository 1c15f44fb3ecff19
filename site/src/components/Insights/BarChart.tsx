import { BarChart as ChartistBarChart } from 'chartist';
import { type ReactNode, useEffect, useRef } from 'react';
import styles from './styles.module.css';

export type BarSeries = { name: string; className: string; values: number[] };

/**
 * A bar chart drawn by Chartist (SVG, no dependencies; its colours come from our CSS, so it follows light and dark).
 * The drawing is hidden from assistive technology: every chart is shown beside a table of the same figures.
 * `markerAt` draws a line before that label's bar (the last docs build). A horizontal chart lists its labels from the
 * top, as a table does.
 */
export function BarChart(props: {
  labels: string[];
  series: BarSeries[];
  horizontal?: boolean;
  stacked?: boolean;
  markerAt?: number | undefined;
  markerLabel?: string;
  testId: string;
}): ReactNode {
  const element = useRef<HTMLDivElement>(null);
  const { labels, series, horizontal = false, stacked = false, markerAt, markerLabel, testId } = props;
  useEffect(() => {
    if (!element.current) return;
    const chart = new ChartistBarChart(
      element.current,
      { labels, series: series.map((entry) => ({ name: entry.name, className: entry.className, data: entry.values })) },
      {
        stackBars: stacked,
        horizontalBars: horizontal,
        // Chartist puts a horizontal chart's first label at the bottom; reversed, the chart reads top down like the
        // table beside it (most first).
        reverseData: horizontal,
        height: horizontal ? `${Math.max(120, labels.length * 32 + 40)}px` : '240px',
        axisX: horizontal ? { onlyInteger: true } : { labelInterpolationFnc: sparseLabels(labels.length) },
        axisY: horizontal ? { offset: 220 } : { onlyInteger: true },
      },
    );
    chart.on('created', (data) => {
      if (markerAt === undefined || horizontal || labels.length === 0) return;
      const step = (data.chartRect.x2 - data.chartRect.x1) / labels.length;
      const x = data.chartRect.x1 + markerAt * step;
      data.svg.elem('line', { x1: x, x2: x, y1: data.chartRect.y1, y2: data.chartRect.y2 }, styles.buildMarker);
      if (markerLabel) {
        // Right of the line, or left of it when the line is in the chart's last part (the text would be cut off).
        const onTheLeft = data.chartRect.x2 - x < markerLabel.length * 7 + 8;
        const at = onTheLeft ? { x: x - 4, 'text-anchor': 'end' } : { x: x + 4 };
        data.svg.elem('text', { ...at, y: data.chartRect.y2 + 12 }, styles.buildMarkerText).text(markerLabel);
      }
    });
    return () => {
      chart.detach();
    };
  }, [labels, series, horizontal, stacked, markerAt, markerLabel]);
  return <div ref={element} className={styles.chart} aria-hidden="true" data-testid={testId} />;
}

/** Every label on a week's chart; on longer periods about eight, so they never overlap. */
function sparseLabels(count: number) {
  const every = Math.max(1, Math.ceil(count / 8));
  return (label: string | number, index: number) => (index % every === 0 ? String(label).slice(5) : null);
}
