import BrowserOnly from '@docusaurus/BrowserOnly';
import { siteFacts } from '@site/site.config';
import Layout from '@theme/Layout';
import { lazy, type ReactNode, Suspense } from 'react';
import hidden from '../css/visually-hidden.module.css';

const CopilotPage = lazy(() => import('@site/src/components/Copilot/CopilotPage'));

function Loading(): ReactNode {
  return (
    <p role="status" className="margin--lg">
      Loading {siteFacts.assistantName}…
    </p>
  );
}

/** /dev-copilot: the same assistant as the floating button, full-page, with the reader's saved conversations. */
export default function DevCopilot(): ReactNode {
  return (
    <Layout title={siteFacts.assistantName} description={`${siteFacts.assistantName}, Acme's development copilot`}>
      {/* The page's landmark and title for assistive technology; the conversation list and chat show what it is. */}
      <main>
        <h1 className={hidden.visuallyHidden}>{siteFacts.assistantName}</h1>
        <BrowserOnly fallback={<Loading />}>
          {() => (
            <Suspense fallback={<Loading />}>
              <CopilotPage />
            </Suspense>
          )}
        </BrowserOnly>
      </main>
    </Layout>
  );
}
