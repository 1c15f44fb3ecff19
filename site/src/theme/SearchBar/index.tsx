import { SearchBox } from '@site/src/components/Search/SearchBox';
import type { ReactNode } from 'react';

/** The navbar's search box, answered by the server's search (no index is downloaded). */
export default function SearchBar(): ReactNode {
  return <SearchBox />;
}
