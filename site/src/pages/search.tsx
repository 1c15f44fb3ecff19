import { SearchResultsPage } from '@site/src/components/Search/SearchResultsPage';
import type { ReactNode } from 'react';

export default function Search(): ReactNode {
  return <SearchResultsPage />;
}
