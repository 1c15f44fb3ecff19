/** Docusaurus' heading ids (github-slugger): lower-cased, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_~]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

const headingLine = /^(#{1,6})\s+(.*?)\s*(?:\{#([\w-]+)\})?\s*$/;
const fence = /^(```|~~~)/;

/**
 * One section of a page's Markdown by its anchor: its heading line and everything up to the next heading of the same
 * or a higher level (code blocks are not read for headings). Undefined when the page has no such section.
 */
export function sectionOf(markdown: string, anchor: string): string | undefined {
  const lines = markdown.split('\n');
  let inFence = false;
  let start: { index: number; level: number } | undefined;
  for (const [index, line] of lines.entries()) {
    if (fence.test(line.trimStart())) inFence = !inFence;
    if (inFence) continue;
    const match = headingLine.exec(line);
    if (!match) continue;
    const level = match[1]?.length ?? 1;
    if (start) {
      if (level <= start.level) return lines.slice(start.index, index).join('\n').trim();
      continue;
    }
    const id = match[3] ?? headingSlug(match[2] ?? '');
    if (id === anchor) start = { index, level };
  }
  return start && lines.slice(start.index).join('\n').trim();
}
