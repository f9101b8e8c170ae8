/* The lobby state machine's public face, for the engine and the transports. */
export * from './formats';
export * from './lobby-state';
export type { Actor } from './lobby-actor';
export * from './lobby-commands';
export type { LobbyEvent } from './lobby-events';
export { applyLobbyCommand } from './lobby-rules';
export { createLobby, LOBBY_NAME_MAX, type CreateLobbyInput, type CreateLobbyOptions } from './create-lobby';
export { settle } from './settle';
export { nextDeadline, READY_CHECK_MS, READY_FLAG_MS } from './deadlines';
export { membershipChange, openMembers, locate, type Location } from './lobby-membership';
export { draftTurn } from './draft-turn';
export { DETAIL_HEAD, DETAIL_TAIL, lobbyDetail, lobbySummary, myVote, poolView, readyChangesAt, slotReady, slotView, teamsView, voteCounts, type DetailField } from './lobby-view';
export { validateChat, chatMessage, CHAT_MESSAGE_MAX } from './lobby-chat';
export * from './lobby-wire';
