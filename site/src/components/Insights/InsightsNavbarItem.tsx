import type { MeResponse } from '@acme/contract';
import Link from '@docusaurus/Link';
import clsx from 'clsx';
import { type ReactNode, useEffect, useState } from 'react';

type Props = { readonly mobile?: boolean; readonly className?: string };

/** Asked once per page load and shared by the navbar and its phone menu: whether the reader is a docs maintainer. */
let maintainerAnswer: Promise<boolean> | undefined;
function askWhetherMaintainer(): Promise<boolean> {
  maintainerAnswer ??= fetch('/api/me', { credentials: 'same-origin', headers: { accept: 'application/json' } })
    .then(async (response) => (response.ok ? ((await response.json()) as Partial<MeResponse>) : {}))
    .then((me) => 'maintainer' in me && me.maintainer === true)
    .catch(() => {
      maintainerAnswer = undefined;
      return false;
    });
  return maintainerAnswer;
}

/**
 * "Insights" in the navbar for docs maintainers (MAINTAINERS) alone: the page answers everyone else with a 404, so a
 * link to it would only lead them there. Nothing is shown until the server has said.
 */
export default function InsightsNavbarItem({ mobile = false, className }: Props): ReactNode {
  const [maintainer, setMaintainer] = useState(false);
  useEffect(() => {
    let current = true;
    void askWhetherMaintainer().then((answer) => {
      if (current) setMaintainer(answer);
    });
    return () => {
      current = false;
    };
  }, []);
  if (!maintainer) return null;
  return (
    <Link
      to="/insights"
      data-testid="insights-link"
      className={clsx(mobile ? 'menu__link' : 'navbar__item navbar__link', className)}
    >
      Insights
    </Link>
  );
}
