import type { EmSource } from './orm';

/** The live epoch's counter in Postgres (migration 0003): survives whatever happens to Redis. */
export class LiveEpochRepository {
  constructor(private readonly db: EmSource) {}

  /** A new epoch, above every one handed out before, across instances. */
  async next(): Promise<number> {
    const [row] = await this.db.em().execute<{ epoch: number }[]>(`select nextval('live_epoch')::int as epoch`);
    return row.epoch;
  }
}
