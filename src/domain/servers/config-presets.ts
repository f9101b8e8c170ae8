/** Server config presets a reservation may ask for (league configs of the competitive formats). */
export const CONFIG_PRESETS = ['etf2l_6v6', 'etf2l_9v9', 'rgl_6v6', 'rgl_9v9', 'ugc_6v6', 'ugc_9v9', 'ultiduo', 'bball'] as const;
export type ConfigPreset = (typeof CONFIG_PRESETS)[number];

/** The preset a lobby's format plays with when its reservation asked for none in particular. */
export const PRESET_OF_FORMAT: Record<string, ConfigPreset> = { '6v6': 'etf2l_6v6', '9v9': 'etf2l_9v9', '4v4': 'etf2l_6v6', ultiduo: 'ultiduo' };
