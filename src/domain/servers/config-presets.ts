import { CONFIG_PRESETS } from '../../../schema/server-vocabulary';

export { CONFIG_PRESETS };
export type ConfigPreset = (typeof CONFIG_PRESETS)[number];

/** The preset a lobby's format plays with when its reservation asked for none in particular. */
export const PRESET_OF_FORMAT: Record<string, ConfigPreset> = { '6v6': 'etf2l_6v6', '9v9': 'etf2l_9v9', '4v4': 'etf2l_6v6', ultiduo: 'ultiduo' };
