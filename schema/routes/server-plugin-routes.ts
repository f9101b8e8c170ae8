import { OkBody } from '../common';
import { PluginExtendBody, PluginExtendResponse, PluginReportMatchBody, PluginWhoBody, PluginWhoResponse } from '../lobby-server';
import { defineRoute } from '../route-contract';

const tag = 'Server plugin';

/** What the in-game plugin calls, with the X-SVC-Plugin-Secret header. */
export const serverPluginRoutes = {
  extend: defineRoute({
    operationId: 'pluginExtend', method: 'post', path: '/api/servers/plugin/extend', tag, auth: ['plugin'], body: PluginExtendBody,
    summary: "Extends an active reservation by 1 to 60 minutes; 409 past the tier's maximum length",
    success: { status: 200, schema: PluginExtendResponse }, errors: [400, 401, 404, 409],
  }),
  who: defineRoute({
    operationId: 'pluginWho', method: 'post', path: '/api/servers/plugin/who', tag, auth: ['plugin'], body: PluginWhoBody,
    summary: "The roster the server should hold: the pinned lobby's seated players with team and class",
    success: { status: 200, schema: PluginWhoResponse }, errors: [400, 401, 404],
  }),
  reportMatch: defineRoute({
    operationId: 'pluginReportMatch', method: 'post', path: '/api/servers/plugin/report-match', tag, auth: ['plugin'], body: PluginReportMatchBody,
    summary: "Reports the match log (and demo) URL; the pinned lobby's log status becomes ready",
    success: { status: 200, schema: OkBody }, errors: [400, 401, 404],
  }),
};
