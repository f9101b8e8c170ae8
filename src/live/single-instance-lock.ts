import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The in-process live store holds state no other process can see, so two servers on one data
 * dir would each believe they own every lobby. This lock makes the second one refuse to start.
 * The lock file holds the owner's pid; a lock whose pid is dead is left over from a crash and is
 * taken over.
 */
export const LOCK_FILE_NAME = 'live-store.lock';

/** Takes the lock or throws; resolves to the function that releases it. */
export async function acquireSingleInstanceLock(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE_NAME);
  // A few rounds, in case another process takes over the same stale lock between our read and retry.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusively(lockPath)) return releaser(lockPath);
    const owner = await readOwner(lockPath);
    if (owner !== undefined && isAlive(owner)) {
      throw new Error(
        `Another server instance (pid ${owner}) is running on the data dir ${path.resolve(dataDir)} with the ` +
          `in-process live store, which cannot be shared. Set REDIS_URL to run more than one instance ` +
          `(or stop the other one; remove ${lockPath} if that pid is not a server).`,
      );
    }
    // Re-read just before removing, so a lock another process has just taken over is left alone.
    if ((await readOwner(lockPath)) === owner) await unlink(lockPath).catch(ignoreMissing);
  }
  throw new Error(`Could not take the lock ${lockPath}: it keeps reappearing; is another instance starting?`);
}

/**
 * Like O_EXCL, link() fails when the path exists; unlike open-then-write, the lock never exists
 * empty, so no other process can mistake a lock being written for a stale one.
 */
async function createExclusively(lockPath: string): Promise<boolean> {
  const draft = `${lockPath}.${process.pid}.tmp`;
  await writeFile(draft, `${process.pid}\n`);
  try {
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft).catch(ignoreMissing);
  }
}

/** The pid in the lock file; undefined when it is missing or not a pid. */
async function readOwner(lockPath: string): Promise<number | undefined> {
  const text = await readFile(lockPath, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaser(lockPath: string): () => Promise<void> {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    // Only our own lock: after a takeover the file may belong to someone else.
    if ((await readOwner(lockPath)) === process.pid) await unlink(lockPath).catch(ignoreMissing);
  };
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
