import * as v from 'valibot';
import { CONFIG_PRESETS, RESERVATION_STATUSES } from './server-vocabulary';
import { IsoDateTime } from './common';

const Password = (name: string) => v.pipe(v.string(), v.minLength(8, `${name} must be 8 to 64 characters`), v.maxLength(64, `${name} must be 8 to 64 characters`));

export const ServerCreateBody = v.object({
  region: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  map: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  config_preset: v.picklist(CONFIG_PRESETS, `config_preset must be one of ${CONFIG_PRESETS.join(', ')}`),
  rcon_password: Password('rcon_password'),
  tier: v.optional(v.picklist(['free', 'premium'], 'tier must be free or premium'), 'free'),
  duration_minutes: v.optional(v.pipe(v.number(), v.integer('duration_minutes must be an integer'), v.minValue(1), v.maxValue(600))),
  server_password: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[^"\s;]+$/, 'server_password must not contain spaces, quotes or semicolons')))),
});
export type ServerCreateBody = v.InferOutput<typeof ServerCreateBody>;

export const ServerScheduleBody = v.object({ ...ServerCreateBody.entries, starts_at: IsoDateTime });
export type ServerScheduleBody = v.InferOutput<typeof ServerScheduleBody>;

export const ServerReservation = v.object({
  id: v.number(),
  owner_id: v.number(),
  tier: v.picklist(['free', 'premium']),
  status: v.picklist(RESERVATION_STATUSES),
  region: v.string(),
  map: v.string(),
  config_preset: v.string(),
  connect_address: v.nullable(v.string()),
  /** Owner and admins only; null for anyone else. */
  rcon_password: v.nullable(v.string()),
  server_password: v.nullable(v.string()),
  starts_at: v.string(),
  ends_at: v.string(),
  created_at: v.string(),
  ended_at: v.nullable(v.string()),
  lobby_code: v.nullable(v.string()),
});
export type ServerReservationWire = v.InferOutput<typeof ServerReservation>;

export const RegionWithStats = v.object({ id: v.string(), name: v.string(), capacity: v.number(), available: v.number() });
export const RegionStats = v.object({ regions: v.array(v.object({ id: v.string(), name: v.string(), available: v.number() })) });
export const RegionCapacity = v.object({ regions: v.array(v.object({ id: v.string(), available: v.number() })) });

export const ReservationIdParams = v.object({ id: v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'must be a positive integer'), v.transform(Number)) });
