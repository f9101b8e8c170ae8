/** The team as its rules see it: who leads, who plays, and whether it still exists. */
export type TeamRole = 'leader' | 'captain' | 'member';
export const TEAM_ROLES: readonly TeamRole[] = ['leader', 'captain', 'member'];

export interface TeamMember {
  userId: number;
  role: TeamRole;
  joinedAt: number;
}

export interface TeamState {
  id: number;
  name: string;
  tag: string;
  description: string;
  leaderId: number;
  /** Open memberships only; the history lives in the store. */
  members: TeamMember[];
  disbanded: boolean;
  version: number;
}

/** Who asks. `banned` is the ban in force now, looked up by the caller of the rule. */
export interface TeamActor {
  id: number;
  isAdmin: boolean;
  banned: boolean;
}

/** What a rule changed, for the store to write and the room to hear. */
export type TeamEvent =
  | { type: 'created'; leaderId: number }
  | { type: 'profile_changed'; name: string; tag: string; description: string }
  | { type: 'member_joined'; userId: number; role: TeamRole }
  | { type: 'member_left'; userId: number; reason: 'left' | 'kicked' }
  | { type: 'role_changed'; userId: number; role: TeamRole }
  | { type: 'disbanded' };

export const memberOf = (team: TeamState, userId: number): TeamMember | undefined => team.members.find((m) => m.userId === userId);
