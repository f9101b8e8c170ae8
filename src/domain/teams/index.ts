export * from './team-state';
export * from './team-guards';
export * from './team-profile';
export * from './team-roster';
export * from './team-roles';
export * from './team-invites';
export * from './roster-lock';
