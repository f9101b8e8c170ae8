import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Temporary upload files, named `<host>.<pid>.<random>.part` so that a sweep can tell which ones
 * belong to a process that is gone: one of this host whose pid no longer runs (or is our own pid,
 * left by an earlier run that had it), or any older than `maxAgeMs` (another host's crash). The
 * same name (without `.part`) is the upload's reference on its `processing` row.
 */
export class UploadTempFiles {
  private readonly host = hostname().replace(/[^\w-]/g, '_');

  constructor(readonly dir: string) {}

  async open(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** A fresh reference and the path its bytes stream to. */
  next(): { ref: string; path: string } {
    const ref = `${this.host}.${process.pid}.${randomBytes(9).toString('base64url')}`;
    return { ref, path: join(this.dir, `${ref}.part`) };
  }

  /**
   * Whether the upload `ref` names can no longer be running. `startedAt` excludes uploads this
   * process itself began: at start-up nothing is ours yet, so a ref with our pid is a dead run's.
   */
  isOrphan(ref: string, age: number, maxAgeMs: number, ownRefs: ReadonlySet<string>): boolean {
    if (ownRefs.has(ref)) return false;
    if (age > maxAgeMs) return true;
    const [host, pid] = ref.split('.');
    if (host !== this.host) return false;
    return Number(pid) === process.pid || !processRuns(Number(pid));
  }

  /** Removes orphaned temporaries; returns the refs removed. */
  async sweep(now: number, maxAgeMs: number, ownRefs: ReadonlySet<string>): Promise<string[]> {
    const removed: string[] = [];
    for (const file of await readdir(this.dir).catch(() => [] as string[])) {
      if (!file.endsWith('.part')) continue;
      const path = join(this.dir, file);
      const info = await stat(path).catch(() => null);
      if (!info) continue;
      const ref = file.slice(0, -'.part'.length);
      if (!this.isOrphan(ref, now - info.mtimeMs, maxAgeMs, ownRefs)) continue;
      await unlink(path).catch(() => undefined);
      removed.push(ref);
    }
    return removed;
  }
}

function processRuns(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
