/**
 * Routes a door's binder built (rest/ builds express routers, which are request handlers), as the
 * composition root sees them: a handler of some transport's requests, handed on to the door that
 * mounts it (rest/rest-app.ts), never called or looked into here. It names no transport's type, so
 * src/ imports neither express nor uWS nor socket.io.
 */
export type DoorRoutes = (...transportArguments: never[]) => unknown;
