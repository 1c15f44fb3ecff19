import { AskCopilotOnNoResults } from '@site/src/components/Copilot/AskCopilotOnNoResults';
import OriginalSearchBar from '@theme-original/SearchBar';
import type { ComponentProps, ReactNode } from 'react';

/** The local search, plus "Ask Dev Copilot" when a query finds nothing. */
export default function SearchBar(props: ComponentProps<typeof OriginalSearchBar>): ReactNode {
  return (
    <>
      <OriginalSearchBar {...props} />
      <AskCopilotOnNoResults />
    </>
  );
}
