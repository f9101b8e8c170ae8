import * as v from 'valibot';

/** The nine classes, in the order the game lists them (and 9v9 seats them). */
export const TF_CLASSES = ['scout', 'soldier', 'pyro', 'demoman', 'heavy', 'engineer', 'medic', 'sniper', 'spy'] as const;
export const TfClass = v.picklist(TF_CLASSES);
export type TfClass = v.InferOutput<typeof TfClass>;

export const LOBBY_FORMATS = ['6v6', '9v9', '4v4', 'ultiduo'] as const;
export const LobbyFormat = v.picklist(LOBBY_FORMATS);
export type LobbyFormat = v.InferOutput<typeof LobbyFormat>;

export const DEFAULT_FORMAT: LobbyFormat = '6v6';

/** The classes of a team's slots, by slot index. Both teams get the same list. */
export const FORMAT_SLOTS: Readonly<Record<LobbyFormat, readonly TfClass[]>> = {
  '6v6': ['scout', 'scout', 'soldier', 'soldier', 'demoman', 'medic'],
  '9v9': TF_CLASSES,
  '4v4': ['scout', 'soldier', 'demoman', 'medic'],
  ultiduo: ['soldier', 'medic'],
};

const ONE_OF_EACH: Readonly<Record<TfClass, number>> = {
  scout: 1, soldier: 1, pyro: 1, demoman: 1, heavy: 1, engineer: 1, medic: 1, sniper: 1, spy: 1,
};

/** How many of a class one team may field; set-class is refused beyond it. */
export const CLASS_LIMITS: Readonly<Record<LobbyFormat, Readonly<Record<TfClass, number>>>> = {
  '6v6': { ...ONE_OF_EACH, scout: 2, soldier: 2 },
  '9v9': ONE_OF_EACH,
  '4v4': ONE_OF_EACH,
  ultiduo: { scout: 0, soldier: 1, pyro: 0, demoman: 0, heavy: 0, engineer: 0, medic: 1, sniper: 0, spy: 0 },
};

export const DEFAULT_MAP_POOLS: Readonly<Record<LobbyFormat, readonly string[]>> = {
  '6v6': ['cp_process_final', 'cp_gullywash_f9', 'cp_sunshine', 'koth_product_final', 'cp_granary_pro_rc16f'],
  '9v9': ['pl_upward_f12', 'pl_badwater_pro_v12', 'koth_product_final', 'cp_steel_f12'],
  '4v4': ['koth_product_final', 'cp_granary_pro_rc16f', 'koth_bagel_rc10'],
  ultiduo: ['ultiduo_baloo_v2', 'ultiduo_lookout_b1'],
};

/** Every map some format offers by default: what a custom map pool may draw from unless told otherwise. */
export const KNOWN_MAPS: readonly string[] = [...new Set(Object.values(DEFAULT_MAP_POOLS).flat())];

export const MAP_POOL_MIN = 2;
export const MAP_POOL_MAX = 5;

export const teamSize = (format: LobbyFormat): number => FORMAT_SLOTS[format].length;
export const classLimit = (format: LobbyFormat, cls: TfClass): number => CLASS_LIMITS[format][cls];
