/**
 * Pages with a route of their own instead of the built site's `/*`, made for a browser alone, each at every spelling
 * the site's own routing would answer for it. Their routes serve them (insights/routes.ts); a token is read there
 * (auth/tokens/token-scope.ts) only to be answered as at any page without a Markdown version (gate/site-routes.ts),
 * whoever its reader is: it never opens the page. Kept apart from both, as auth/ imports nothing of insights/.
 */

/** The maintainers' insights. */
export const insightsPagePaths: readonly string[] = ['/insights', '/insights/', '/insights/*', '/insights.html'];

/** Every page above: where a token gets "No Markdown version". */
export const browserOnlyPagePaths: readonly string[] = [...insightsPagePaths];
