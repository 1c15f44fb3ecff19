/**
 * The origin the build writes into the pages' Markdown and `llms.txt` links. The server puts its own public origin
 * (PUBLIC_URL) in its place when it reads the build, so one build serves any address; `.invalid` is reserved (RFC
 * 6761), so no real link in a page can be taken for it.
 */
export const builtMarkdownOrigin = 'https://handbook-origin.invalid';

const fence = /^(```|~~~)/;

/**
 * Root-relative links and reference definitions outside code, made absolute to the site's origin: Markdown that
 * leaves the site (a `.md` page, an answer copied into a chat or a merge request) is read where `/faqs/` leads nowhere.
 */
export function absoluteLinks(markdown: string, origin: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (fence.test(line.trimStart())) inFence = !inFence;
      if (inFence) return line;
      return line
        .replace(/\]\((\/(?!\/)[^)\s]*)/g, (_match, path: string) => `](${origin}${path}`)
        .replace(
          /^(\s*\[[^\]]+\]:\s*)(\/(?!\/)\S*)/,
          (_match, label: string, path: string) => `${label}${origin}${path}`,
        );
    })
    .join('\n');
}
