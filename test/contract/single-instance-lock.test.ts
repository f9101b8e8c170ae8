import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLiveStore } from '../../src/live/open-live-store';
import { acquireSingleInstanceLock, LOCK_FILE_NAME } from '../../src/live/single-instance-lock';

/** A pid that was alive a moment ago and is not any more. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (!child.pid) throw new Error('could not start a child process');
  return child.pid;
}

describe('single-instance lock', () => {
  let dataDir: string;
  const lockPath = () => path.join(dataDir, LOCK_FILE_NAME);

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'live-store-lock-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes the holder pid into <dataDir>/live-store.lock', async () => {
    const release = await acquireSingleInstanceLock(dataDir);
    expect((await readFile(lockPath(), 'utf8')).trim()).toBe(String(process.pid));
    await release();
  });

  it('refuses a second holder on the same data dir, pointing to REDIS_URL', async () => {
    const release = await acquireSingleInstanceLock(dataDir);
    await expect(acquireSingleInstanceLock(dataDir)).rejects.toThrow(/another server instance .* is running on the data dir.*set REDIS_URL/is);
    await release();
  });

  it('takes over a lock left by a process that is gone', async () => {
    await writeFile(lockPath(), `${deadPid()}\n`);
    const release = await acquireSingleInstanceLock(dataDir);
    expect((await readFile(lockPath(), 'utf8')).trim()).toBe(String(process.pid));
    await release();
  });

  it('takes over a lock file that holds no pid', async () => {
    await writeFile(lockPath(), '');
    const release = await acquireSingleInstanceLock(dataDir);
    await release();
  });

  it('removes the lock on release, so the next holder can take it', async () => {
    const release = await acquireSingleInstanceLock(dataDir);
    await release();
    expect(existsSync(lockPath())).toBe(false);
    const again = await acquireSingleInstanceLock(dataDir);
    await again();
  });

  it('leaves a lock that another process took over in place on release', async () => {
    const release = await acquireSingleInstanceLock(dataDir);
    await writeFile(lockPath(), `${process.ppid}\n`);
    await release();
    expect((await readFile(lockPath(), 'utf8')).trim()).toBe(String(process.ppid));
  });

  it('creates a missing data dir', async () => {
    const nested = path.join(dataDir, 'not', 'yet');
    const release = await acquireSingleInstanceLock(nested);
    expect(existsSync(path.join(nested, LOCK_FILE_NAME))).toBe(true);
    await release();
  });
});

describe('openLiveStore without REDIS_URL', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'live-store-open-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('opens the in-process store, holding the data dir until it is closed', async () => {
    const store = await openLiveStore({ dataDir });
    expect(store.kind).toBe('memory');
    await expect(openLiveStore({ dataDir })).rejects.toThrow(/REDIS_URL/);
    await store.close();
    const next = await openLiveStore({ dataDir });
    await next.close();
  });
});
