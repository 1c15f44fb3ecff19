import BrowserOnly from '@docusaurus/BrowserOnly';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import type { ReactNode } from 'react';
import AccessTokens from '../components/AccessTokens';
import styles from '../components/AccessTokens/styles.module.css';

/** /access-tokens: the reader's personal access tokens, for scripts and coding agents (MCP). */
export default function AccessTokensPage(): ReactNode {
  return (
    <Layout title="Access tokens" description="Personal access tokens for scripts and coding agents">
      <main className="container margin-vert--lg">
        <h1>Access tokens</h1>
        <p className={styles.intro}>
          A personal access token lets a script or a coding agent (Claude Code, Cursor, VS Code) read the handbook as
          you: the pages as Markdown, search, Dev Copilot's answers and your own chats, read-only. Send it as{' '}
          <code>Authorization: Bearer …</code>; it works at <code>/mcp</code>, the <code>/api/askAi</code>,{' '}
          <code>/api/search</code> and <code>/api/threads</code> APIs, <code>/llms.txt</code>, and on every doc page: at
          the page's own address (<code>/faqs/</code>) or its <code>.md</code> address (<code>/faqs.md</code>) a token
          gets the page's Markdown, never the HTML made for a browser. Revoke a token you no longer use. See{' '}
          <Link to="pathname:///llms.txt">llms.txt</Link> for the pages.
        </p>
        <BrowserOnly fallback={<p role="status">Loading your tokens…</p>}>{() => <AccessTokens />}</BrowserOnly>
      </main>
    </Layout>
  );
}
