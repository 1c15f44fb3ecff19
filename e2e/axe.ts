import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string; nodes: Array<{ target: string[]; failureSummary?: string }> };

/** axe-core's violations on the page, or only inside the elements `include` selects. */
export async function runAxe(page: Page, include?: string): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, so the page's CSP stays untouched.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (selector) => {
    type Axe = { run: (context?: unknown) => Promise<{ violations: AxeViolation[] }> };
    const axe = (window as unknown as { axe: Axe }).axe;
    const { violations } = await (selector ? axe.run({ include: [[selector]] }) : axe.run());
    return violations.map(({ id, impact, nodes }) => ({ id, impact, nodes }));
  }, include);
}

/**
 * Every axe-core violation on the page (all impacts, minor included), as "rule: first elements (message)", so a
 * failing test says what to fix.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  return (await runAxe(page)).map(
    (violation) =>
      `${violation.id} (${violation.impact}, ${violation.nodes.length}): ` +
      violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')} (${node.failureSummary?.split('\n')[1]?.trim() ?? ''})`)
        .join('; '),
  );
}
