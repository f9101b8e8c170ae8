import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { UploadTempFiles } from '../../../src/maps/upload-temp-files';

const temps = new UploadTempFiles('/nonexistent');
const host = hostname().replace(/[^\w-]/g, '_');
const HOUR = 3_600_000;
const none = new Set<string>();

describe('which upload temporaries are orphans', () => {
  it('keeps an upload this process is running', () => {
    const { ref } = temps.next();
    expect(temps.isOrphan(ref, 0, HOUR, new Set([ref]))).toBe(false);
  });

  it('takes a ref with our own pid that we are not running as left by an earlier run', () => {
    expect(temps.isOrphan(`${host}.${process.pid}.abc`, 0, HOUR, none)).toBe(true);
  });

  it('keeps a fresh upload of another live process on this host', () => {
    expect(temps.isOrphan(`${host}.${process.ppid}.abc`, 0, HOUR, none)).toBe(false);
  });

  it('takes a fresh upload of a process on this host that no longer runs', () => {
    expect(temps.isOrphan(`${host}.99999999.abc`, 0, HOUR, none)).toBe(true);
  });

  it("keeps another host's fresh upload, and takes it once it is older than any upload can be", () => {
    expect(temps.isOrphan('other-host.1234.abc', 60_000, HOUR, none)).toBe(false);
    expect(temps.isOrphan('other-host.1234.abc', HOUR + 1, HOUR, none)).toBe(true);
  });

  it('names each temporary after this host and process', () => {
    expect(temps.next().ref).toMatch(new RegExp(`^${host}\\.${process.pid}\\.[\\w-]+$`));
  });
});
