import { OkBody } from '../common';
import { PluginExtendBody, PluginExtendResponse, PluginReportMatchBody, PluginWhoBody, PluginWhoResponse } from '../lobby-server';
import { defineRoute } from '../route-contract';

const tag = 'Server plugin';

/** What the in-game plugin calls, with the X-SVC-Plugin-Secret header. */
export const serverPluginRoutes = {
  extend: defineRoute({
    operationId: 'pluginExtend', method: 'post', path: '/api/servers/plugin/extend', tag, auth: ['plugin'], body: PluginExtendBody,
    description:
      'Called by the in-game plugin (X-SVC-Plugin-Secret) to extend an active reservation by 1 to 60 minutes. 404 when no active reservation has that id; 409 past the tier\'s maximum length or when the region has no room to extend into.',
    bodyExample: { reservation_id: 42, minutes: 30 },
    summary: "Extends an active reservation by 1 to 60 minutes; 409 past the tier's maximum length",
    success: { status: 200, schema: PluginExtendResponse }, errors: [400, 401, 404, 409],
  }),
  who: defineRoute({
    operationId: 'pluginWho', method: 'post', path: '/api/servers/plugin/who', tag, auth: ['plugin'], body: PluginWhoBody,
    description:
      'Called by the in-game plugin (X-SVC-Plugin-Secret): the roster the server should hold, the seated players of the lobby pinned to the reservation with their team and class (lobby_code null when none is pinned). 404 for an unknown reservation.',
    bodyExample: { reservation_id: 42 },
    summary: "The roster the server should hold: the pinned lobby's seated players with team and class",
    success: { status: 200, schema: PluginWhoResponse }, errors: [400, 401, 404],
  }),
  reportMatch: defineRoute({
    operationId: 'pluginReportMatch', method: 'post', path: '/api/servers/plugin/report-match', tag, auth: ['plugin'], body: PluginReportMatchBody,
    description:
      'Called by the in-game plugin (X-SVC-Plugin-Secret) with the match log URL (and, optionally, the demo URL); the pinned lobby\'s log status becomes ready. 404 for an unknown reservation or one with no lobby pinned.',
    bodyExample: { reservation_id: 42, log_url: 'https://logs.tf/3712345', demo_url: 'https://demos.tf/1234567' },
    summary: "Reports the match log (and demo) URL; the pinned lobby's log status becomes ready",
    success: { status: 200, schema: OkBody }, errors: [400, 401, 404],
  }),
};
