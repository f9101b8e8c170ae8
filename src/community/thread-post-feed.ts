import type { ThreadPostPush } from '../../schema/community';
import type { LiveStore, Unsubscribe } from '../live/live-store';

/** The live-store channel every instance listens on for post changes to push to its thread subscribers. */
export const THREAD_POSTS_CHANNEL = 'community:thread-posts';

/**
 * Post times are written by whichever instance made the change, by its own clock: a change made
 * just before the feed went quiet here may carry a time a little before what this instance read.
 */
const CLOCK_MARGIN_MS = 5_000;
/** How soon a read after a loss is tried again when it failed (the database away too). */
const RETRY_MS = 1_000;

export interface ThreadPostFeedDeps {
  live: Pick<LiveStore, 'publish' | 'subscribe'>;
  /** The threads some socket of this instance watches. */
  watchedThreads(): number[];
  /** The posts of those threads written, approved, edited or deleted at `since` or later, oldest first. */
  changedSince(threadIds: number[], since: number): Promise<ThreadPostPush[]>;
  /** Sends a post change to this instance's subscribers of its thread. */
  deliver(push: ThreadPostPush): void;
  clock(): number;
  onError(error: unknown): void;
}

/**
 * Post changes to every instance's thread subscribers: a change publishes the post on the live
 * store's channel, and each instance sends it to its own subscribers of the thread.
 *
 * Posts carry no version, so a change lost with a dropped subscription (Redis closed it, or
 * restarted) shows no gap to anyone. When the subscription is back, the posts of the watched
 * threads that changed since the feed was last heard from are read from the database and sent
 * again (a watcher may get a change it already has: a post is a whole post, taken by its id).
 * One that arrives on the feed meanwhile is newer than the read: the read's copy is not sent.
 */
export class ThreadPostFeed {
  /** The last moment the subscription was surely live here: a message arrived, or it was (re)made. */
  #heardAt = 0;
  /** For each read after a loss under way, the posts the feed delivered meanwhile. */
  readonly #arrivedDuringReads = new Set<Set<number>>();
  #unsubscribe: Unsubscribe | undefined;
  #closed = false;

  constructor(private readonly deps: ThreadPostFeedDeps) {}

  async start(): Promise<void> {
    this.#heardAt = this.deps.clock();
    this.#unsubscribe = await this.deps.live.subscribe(
      THREAD_POSTS_CHANNEL,
      (message) => {
        this.#heardAt = this.deps.clock();
        const push = JSON.parse(message) as ThreadPostPush;
        for (const arrived of this.#arrivedDuringReads) arrived.add(push.post.id);
        this.deps.deliver(push);
      },
      () => this.#recover(),
    );
  }

  /** After a commit: tell every instance (this one too, through the channel). */
  changed(push: ThreadPostPush): void {
    this.deps.live.publish(THREAD_POSTS_CHANNEL, JSON.stringify(push)).catch(this.deps.onError);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#unsubscribe?.();
  }

  #recover(since = this.#heardAt - CLOCK_MARGIN_MS): void {
    this.#heardAt = this.deps.clock();
    const threads = this.deps.watchedThreads();
    if (this.#closed || threads.length === 0) return;
    const arrived = new Set<number>();
    this.#arrivedDuringReads.add(arrived);
    this.deps
      .changedSince(threads, since)
      .then(
        (pushes) => {
          for (const push of pushes) if (!arrived.has(push.post.id)) this.deps.deliver(push);
        },
        (error: unknown) => {
          this.deps.onError(error);
          setTimeout(() => this.#recover(since), RETRY_MS).unref();
        },
      )
      .finally(() => this.#arrivedDuringReads.delete(arrived));
  }
}
