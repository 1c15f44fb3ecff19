import type { WrapperProps } from '@docusaurus/types';
import PageActions from '@site/src/components/PageActions';
import type ContentType from '@theme/DocItem/Content';
import Content from '@theme-original/DocItem/Content';
import type { ReactNode } from 'react';

type Props = WrapperProps<typeof ContentType>;

/** Every doc page's content with its page menu (copy or view as Markdown, ask Dev Copilot) beside the title. */
export default function ContentWrapper(props: Props): ReactNode {
  return (
    <>
      <PageActions />
      <Content {...props} />
    </>
  );
}
