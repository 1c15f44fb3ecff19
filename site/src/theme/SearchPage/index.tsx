import { AskCopilotOnEmptySearchPage } from '@site/src/components/Copilot/AskCopilotOnNoResults';
import OriginalSearchPage from '@theme-original/SearchPage';
import type { ComponentProps, ReactNode } from 'react';

/** The local search's results page, plus "Ask Dev Copilot" when a query finds nothing. */
export default function SearchPage(props: ComponentProps<typeof OriginalSearchPage>): ReactNode {
  return (
    <>
      <OriginalSearchPage {...props} />
      <AskCopilotOnEmptySearchPage />
    </>
  );
}
