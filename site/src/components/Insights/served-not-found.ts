import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import { matchPath } from '@docusaurus/router';
import routes from '@generated/routes';

/**
 * A client module, run before React's first render. The server answers /insights with the page every unknown address
 * gets (the docs layout's not-found, prerendered once) to anyone but a maintainer, so not even the page's existence
 * shows. The client's own route for /insights would then render the insights page over that HTML, and React would log
 * a hydration mismatch (error #418) and draw the page again. When the document the server sent is the not-found page,
 * the route is dropped before the first render: the address is as unknown to this page as it was to the server.
 */
if (ExecutionEnvironment.canUseDOM && document.querySelector('[data-page-not-found]')) {
  // Docusaurus routes `/insights.html` and `/insights/index.html` as `/insights`.
  const pathname = window.location.pathname.replace(/(\/index)?\.html$/, '');
  const index = routes.findIndex((route) => route.path === '/insights' && matchPath(pathname, route));
  if (index >= 0) routes.splice(index, 1);
}
