import { forbidden, type DomainError } from '../domain-error';

/** The account asking, as the credential check and the premium grants describe it. */
export interface MapActor {
  userId: number;
  isAdmin: boolean;
  premiumActive: boolean;
}

/** Premium members and admins may upload (spec: "premium or admin only"). */
export const mayUploadMaps = (actor: MapActor): boolean => actor.isAdmin || actor.premiumActive;

export function checkMayUpload(actor: MapActor): DomainError | null {
  return mayUploadMaps(actor) ? null : forbidden('uploading maps needs an active premium membership (or an admin account)');
}

/** Only the uploader or an admin deletes a map. */
export function checkMayDelete(actor: Pick<MapActor, 'userId' | 'isAdmin'>, map: { uploaderId: number }): DomainError | null {
  return actor.isAdmin || map.uploaderId === actor.userId ? null : forbidden('only the uploader or an admin may delete this map');
}
