import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const docsDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs');

export type DocSource = { file: string; frontMatter: string; body: string };

/** Every Markdown doc of the handbook, split into front matter and body. */
export function readDocSources(): DocSource[] {
  const files = readdirSync(docsDirectory, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.md'),
  );
  return files.sort().map((file) => {
    const source = readFileSync(path.join(docsDirectory, file), 'utf8');
    const match = source.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/);
    return { file, frontMatter: match?.[1] ?? '', body: match?.[2] ?? source };
  });
}

/** The Markdown without fenced code blocks and inline code. */
export function withoutCode(markdownBody: string): string {
  return markdownBody.replace(/^(```|~~~)[\s\S]*?^\1/gm, ' ').replace(/`[^`\n]*`/g, ' ');
}

/** Words of running text: code blocks and inline code do not count. */
export function proseWordCount(markdownBody: string): number {
  const prose = withoutCode(markdownBody);
  return prose.match(/[A-Za-z0-9][A-Za-z0-9'’-]*/g)?.length ?? 0;
}
