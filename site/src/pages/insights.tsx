import BrowserOnly from '@docusaurus/BrowserOnly';
import Layout from '@theme/Layout';
import { lazy, type ReactNode, Suspense } from 'react';

const InsightsPage = lazy(() => import('@site/src/components/Insights/InsightsPage'));

function Loading(): ReactNode {
  return (
    <p role="status" className="margin--lg">
      Loading the insights…
    </p>
  );
}

/**
 * /insights: the docs maintainers' figures. The server serves this page to maintainers only (404 for everyone else);
 * its charts load lazily, so no doc page carries them.
 */
export default function Insights(): ReactNode {
  return (
    <Layout title="Insights" description="What readers ask and search for, for the docs maintainers" noFooter={false}>
      <BrowserOnly fallback={<Loading />}>
        {() => (
          <Suspense fallback={<Loading />}>
            <InsightsPage />
          </Suspense>
        )}
      </BrowserOnly>
    </Layout>
  );
}
