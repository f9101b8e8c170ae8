/* The lobby records on the wire live in schema/ (the one source of the wire contract); re-exported for the domain's views. */
export { LobbyChatMessage, LobbyDetail, LobbySlot, LobbySummary, LobbyVotes } from '../../../schema/lobby';
