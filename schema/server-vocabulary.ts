/**
 * The game-server words the wire contract names (presets, reservation and log statuses). They are
 * declared here so `schema/` imports nothing from `src/`; the domain (src/domain/servers) takes
 * them from here and adds their rules.
 */

/** Server config presets a reservation may ask for (league configs of the competitive formats). */
export const CONFIG_PRESETS = ['etf2l_6v6', 'etf2l_9v9', 'rgl_6v6', 'rgl_9v9', 'ugc_6v6', 'ugc_9v9', 'ultiduo', 'bball'] as const;

/**
 * Reservation statuses (docs/design/CONTRACT.md): pending -> provisioning -> active -> ending -> ended, with
 * failed (provisioning gave up) and cancelled (a pending one deleted).
 */
export const RESERVATION_STATUSES = ['pending', 'provisioning', 'active', 'ending', 'ended', 'failed', 'cancelled'] as const;

/** A match's log upload. */
export const LOG_STATUSES = ['pending', 'uploading', 'ready', 'failed'] as const;
