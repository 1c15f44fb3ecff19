import { createHash } from 'node:crypto';
import { maximumFragmentLength, sentFragment } from './return-path.js';

/**
 * The gate page's one script. A section link (/firestore-ttl#turning-a-policy-off) reaches the server without its
 * fragment, so the page adds `location.hash` to the `next` of its sign-in links; the server checks it again
 * (safeReturnPath). Without JavaScript the links still work and return to the page's top.
 */
export const returnAnchorScript = `(() => {
  const fragment = location.hash;
  if (fragment.length > ${maximumFragmentLength + 1} || !/${sentFragment.source}/.test(fragment)) return;
  for (const link of document.querySelectorAll('a[href^="/auth/login?"]')) {
    const url = new URL(link.href);
    const next = url.searchParams.get('next');
    if (!next || next.includes('#')) continue;
    url.searchParams.set('next', next + fragment);
    link.href = url.pathname + url.search;
  }
})();`;

/** For the CSP's script-src: this script and no other inline script runs on the gate pages. */
export const returnAnchorScriptHash = `'sha256-${createHash('sha256').update(returnAnchorScript).digest('base64')}'`;
