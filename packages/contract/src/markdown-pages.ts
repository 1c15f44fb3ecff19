/**
 * The origin the build writes into the pages' Markdown and `llms.txt` links. The server puts its own public origin
 * (PUBLIC_URL) in its place when it reads the build, so one build serves any address; `.invalid` is reserved (RFC
 * 6761), so no real link in a page can be taken for it.
 */
export const builtMarkdownOrigin = 'https://handbook-origin.invalid';
