import { Migration } from '@mikro-orm/migrations';

/**
 * The final roster of every team of a cup, written in the transaction that completes the cup:
 * points prizes go to these players, not to whoever is on the team when an admin pays out
 * (rosters unlock at completion, and team roles change in place, so the leader at completion
 * cannot be read back from the memberships). A correction that reopens and completes the cup
 * again writes it again. Cups completed before this migration get the memberships open at their
 * completion time and the team's leader now.
 */
export class CupFinalRosters extends Migration {
  override up(): void {
    this.addSql(`create table "cup_final_rosters" (
      "tournament_id" int not null,
      "team_id" int not null,
      "user_id" int not null,
      "is_leader" boolean not null,
      constraint "cup_final_rosters_pkey" primary key ("tournament_id", "team_id", "user_id"),
      constraint "cup_final_rosters_tournament_id_foreign" foreign key ("tournament_id") references "tournaments" ("id") on update cascade on delete cascade,
      constraint "cup_final_rosters_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade,
      constraint "cup_final_rosters_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade
    )`);
    this.addSql(`insert into "cup_final_rosters" ("tournament_id", "team_id", "user_id", "is_leader")
      select t."id", e."team_id", m."user_id", m."user_id" = tm."leader_id"
      from "tournaments" t
      join "tournament_entries" e on e."tournament_id" = t."id" and e."final_rank" is not null
      join "teams" tm on tm."id" = e."team_id"
      join "team_memberships" m on m."team_id" = e."team_id" and m."joined_at" <= t."completed_at"
        and (m."left_at" is null or m."left_at" > t."completed_at")
      where t."entry_fee" is not null and t."status" = 'completed'`);
  }

  override down(): void {
    this.addSql(`drop table if exists "cup_final_rosters"`);
  }
}
