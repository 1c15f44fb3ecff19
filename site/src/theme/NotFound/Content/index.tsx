import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import { PageMetadata } from '@docusaurus/theme-common';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Heading from '@theme/Heading';
import clsx from 'clsx';
import type { ReactNode } from 'react';

const title = 'Page Not Found';

/**
 * The not-found page's content. With the docs at the site's root, an unknown address is the docs plugin's and gets
 * this content inside the docs layout, whose title is the site's alone ("Acme Developer Handbook"); so the content
 * sets the page title itself (the deepest title wins) and names the address that was not found.
 */
export default function NotFoundContent({ className }: { className?: string }): ReactNode {
  const location = useLocation();
  // The page is prerendered once as /404.html and served for every unknown address: name it once hydrated.
  const pathname = useIsBrowser() ? location.pathname : '';
  const words = pathname.replace(/[/_-]+/g, ' ').trim();
  return (
    <>
      <PageMetadata title={title} />
      {/* Marks the document as the not-found page for the client before it renders (Insights/served-not-found). */}
      <main className={clsx('container margin-vert--xl', className)} data-page-not-found>
        <div className="row">
          {/* markdown: links in the text are underlined there, as in every doc. */}
          <div className="col col--6 col--offset-3 markdown">
            <Heading as="h1" className="hero__title">
              {title}
            </Heading>
            <p>
              {pathname ? (
                <>
                  There is no page at <code>{pathname}</code>.
                </>
              ) : (
                'There is no page at this address.'
              )}
            </p>
            <p>
              {words && (
                <>
                  <Link to={`/search?q=${encodeURIComponent(words)}`}>Search the handbook for “{words}”</Link>
                  {', or '}
                </>
              )}
              start from <Link to="/docs/">all docs</Link>.
            </p>
          </div>
        </div>
      </main>
    </>
  );
}
