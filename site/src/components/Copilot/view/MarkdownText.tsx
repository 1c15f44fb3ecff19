import { useAuiState } from '@assistant-ui/react';
import { type CodeHeaderProps, MarkdownTextPrimitive } from '@assistant-ui/react-markdown';
import Link from '@docusaurus/Link';
import { type ComponentPropsWithoutRef, type ReactNode, useCallback, useMemo, useState } from 'react';
import remarkGfm from 'remark-gfm';
import type { LinkVerdicts } from '../runtime/turn-message';
import { remarkCheckedLinks } from './checked-links';
import { Icon } from './icons';
import styles from './MarkdownText.module.css';
import { remarkRawHtmlAsText } from './raw-html-as-text';
import { SideScroll } from './SideScroll';
import shared from './shared.module.css';
import { TooltipButton } from './TooltipButton';
import { withoutUnfinishedLink } from './unfinished-link';
import { useCopiedState } from './useCopiedState';

function CodeHeader({ language, code }: CodeHeaderProps): ReactNode {
  const [copied, markCopied] = useCopiedState();
  const [failed, setFailed] = useState(false);
  const copy = () => navigator.clipboard.writeText(code).then(markCopied, () => setFailed(true));
  return (
    <div className={styles.codeHeader} data-testid="code-header">
      <span>{language || 'text'}</span>
      <span role="status" className={styles.copied}>
        {copied ? 'Copied' : ''}
      </span>
      <TooltipButton
        tooltip={failed ? 'Copy failed' : 'Copy'}
        onClick={() => void copy()}
        data-copied={copied || undefined}
      >
        <Icon name={copied ? 'check' : 'copy'} />
      </TooltipButton>
    </div>
  );
}

/** A long code line scrolls in its block, never clipped at the chat's edge; Copy (in the header) copies all of it. */
function CodeBlock({ node: _node, ...rest }: ComponentPropsWithoutRef<'pre'> & { node?: unknown }) {
  return (
    <SideScroll label="Code">
      <pre {...rest} />
    </SideScroll>
  );
}

/** A wide table scrolls sideways in its own box instead of breaking its words to fit the chat. */
function Table({ node: _node, ...rest }: ComponentPropsWithoutRef<'table'> & { node?: unknown }) {
  return (
    <SideScroll label="Table">
      <table {...rest} />
    </SideScroll>
  );
}

/** Handbook links stay inside the single-page app, so the conversation stays open while the reader follows one. */
function AnswerLink({ href, children, node: _node, ...rest }: ComponentPropsWithoutRef<'a'> & { node?: unknown }) {
  if (!href) return <span>{children}</span>;
  if (href.startsWith('/') && !href.startsWith('//')) {
    return (
      <Link className={shared.link} to={href}>
        {children}
      </Link>
    );
  }
  return (
    <a {...rest} className={shared.link} href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/**
 * An image in an answer (only one of our site reaches here: `remarkCheckedLinks`) whose address the URL filter still
 * emptied shows its description as text, never a broken-image icon.
 */
function AnswerImage({ src, alt, node: _node, ...rest }: ComponentPropsWithoutRef<'img'> & { node?: unknown }) {
  if (!src) return alt ? <span>[image: {alt}]</span> : null;
  return <img {...rest} src={src} alt={alt ?? ''} />;
}

const noVerdicts: LinkVerdicts = {};
/** The answer's text alone, without the notes and buttons around it: what tests compare before and after a reload. */
const answerText = { className: styles.markdown, 'data-testid': 'copilot-answer-text' };

/**
 * An answer's markdown (spec section 5): GFM, headings to h6, code blocks with a language header and Copy, raw HTML
 * as text, links to the handbook as the server checked them, images of our site only. react-markdown's default URL
 * filter already keeps only relative, http(s), irc(s), mailto and xmpp links.
 */
export function MarkdownText(): ReactNode {
  const verdicts = useAuiState((s) => (s.message.metadata.custom.links as LinkVerdicts | undefined) ?? noVerdicts);
  const remarkPlugins = useMemo(
    () => [remarkGfm, remarkRawHtmlAsText, remarkCheckedLinks(verdicts, window.location.origin)],
    [verdicts],
  );
  // The part's whole text so far: what is revealed of it falls short while the widget smooths the stream.
  const whole = useAuiState((s) => (s.part.type === 'text' ? s.part.text : ''));
  const streaming = useAuiState((s) => s.message.status?.type === 'running');
  const preprocess = useCallback(
    (revealed: string) => (streaming || revealed.length < whole.length ? withoutUnfinishedLink(revealed) : revealed),
    [streaming, whole],
  );
  return (
    <MarkdownTextPrimitive
      containerProps={answerText}
      preprocess={preprocess}
      remarkPlugins={remarkPlugins}
      components={{ CodeHeader, a: AnswerLink, img: AnswerImage, pre: CodeBlock, table: Table }}
    />
  );
}
