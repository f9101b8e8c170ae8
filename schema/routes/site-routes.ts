import { defineRoute, type RouteContract } from '../route-contract';

const tag = 'site';

const page = (operationId: string, path: string, summary: string, contentType: string): RouteContract =>
  defineRoute({ operationId, method: 'get', path, tag, summary, auth: [], success: { status: 200, contentType }, errors: [304] });

/**
 * What the server serves beside the API: the live lobby page and its assets, the API's own
 * document and the page that renders it. They are not operations of the API (not in `allRoutes`,
 * so not in the OpenAPI document), yet pass the one exchange (src/door/exchange.ts) like every
 * route: a key in the URL is 401, a shutdown is 503 with `Connection: close`.
 */
export const siteRoutes = {
  lobbyList: page('lobbyListPage', '/', 'The live lobby page: the open lobbies', 'text/html'),
  lobbyPage: page('lobbyPage', '/lobby/:code', 'The live lobby page: one lobby', 'text/html'),
  appScript: page('lobbyPageScript', '/assets/app.js', "The lobby page's script", 'text/javascript'),
  playScript: page('lobbyPagePlayScript', '/assets/play.js', "The lobby page's play script", 'text/javascript'),
  stylesheet: page('lobbyPageStylesheet', '/assets/style.css', "The lobby page's stylesheet", 'text/css'),
  openApi: page('openApiDocument', '/openapi.json', 'The OpenAPI document of the API', 'application/json'),
  docs: page('apiDocsPage', '/docs', 'A page that renders the OpenAPI document', 'text/html'),
};

/**
 * A request no route matches, at any method: it passes the exchange too, and is answered 404
 * `{error}` by its handler. Its path is the label the request observers report (route 'unmatched').
 */
export const unmatchedRoute = defineRoute({
  operationId: 'unmatched', method: 'get', path: 'unmatched', tag, auth: [],
  summary: 'Any path no route matches: 404 {error}', success: { status: 404 }, errors: [404],
});
