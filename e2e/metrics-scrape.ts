import { expect } from 'vitest';

/** What Prometheus reads from the server's metrics listener: the text, and a way to read one sample of it. */
export type Scrape = { text: string; sample(name: string, labels?: Record<string, string>): number | undefined };

/** Scrapes GET /metrics on the metrics port as Prometheus would; fails unless it is the Prometheus text format. */
export async function scrape(port: number): Promise<Scrape> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, sample: (name, labels = {}) => sampleOf(text, name, labels) };
}

/**
 * The value of the sample `name` whose labels include `labels`, or undefined. Our own few lines rather than a
 * parser package: the one on npm (parse-prometheus-text-format) has not been maintained for years, and the samples
 * prom-client writes are one per line, `name{label="value",...} number`.
 */
function sampleOf(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** How much each sample grew between two scrapes (a sample absent before counts from zero). */
export function grewBy(before: Scrape, after: Scrape, name: string, labels?: Record<string, string>): number {
  return (after.sample(name, labels) ?? 0) - (before.sample(name, labels) ?? 0);
}
