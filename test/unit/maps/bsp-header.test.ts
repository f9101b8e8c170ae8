import { describe, expect, it } from 'vitest';
import { BSP_HEADER_BYTES, checkBspHeader, checkBspStart, takeHeaderBytes } from '../../../src/domain/maps/bsp-header';
import { parseMapFileName } from '../../../src/domain/maps/map-file-name';
import { buildBsp } from '../../support/bsp-file';

const check = (file: Buffer) => checkBspHeader(file.subarray(0, BSP_HEADER_BYTES), file.length);

describe('the BSP header check', () => {
  it('accepts a well-formed version 20 map', () => {
    expect(check(buildBsp({ revision: 7 }))).toEqual({ ok: true, version: 20, mapRevision: 7 });
  });

  it('accepts version 19, which the game still loads', () => {
    expect(check(buildBsp({ version: 19 })).ok).toBe(true);
  });

  it('refuses a file without the VBSP magic', () => {
    expect(check(buildBsp({ magic: 'PK\x03\x04' }))).toEqual({ ok: false, reason: expect.stringContaining('VBSP magic') });
  });

  it('refuses a version the game does not read', () => {
    expect(check(buildBsp({ version: 21 }))).toEqual({ ok: false, reason: expect.stringContaining('BSP version 21') });
  });

  it('refuses a file shorter than the header', () => {
    const file = buildBsp().subarray(0, 600);
    expect(check(file)).toEqual({ ok: false, reason: expect.stringContaining('truncated') });
  });

  it('refuses a file cut after the header, whose lumps now end past its end', () => {
    const file = buildBsp({ padding: 4096 });
    const cut = file.subarray(0, file.length - 100);
    expect(check(cut)).toEqual({ ok: false, reason: expect.stringMatching(/lump 1 .* past the end/) });
  });

  it('refuses a lump pointing outside the file', () => {
    const file = buildBsp({ forgeLump: { index: 40, offset: 2_000_000, length: 10 } });
    expect(check(file)).toEqual({ ok: false, reason: expect.stringContaining('lump 40') });
  });

  it('refuses a negative lump length', () => {
    expect(check(buildBsp({ forgeLump: { index: 5, offset: 2000, length: -4 } })).ok).toBe(false);
  });

  it('refuses a lump overlapping the header', () => {
    expect(check(buildBsp({ forgeLump: { index: 3, offset: 16, length: 10 } }))).toEqual({ ok: false, reason: expect.stringContaining('inside the') });
  });

  it('refuses a map whose entities lump is empty', () => {
    expect(check(buildBsp({ forgeLump: { index: 0, offset: 0, length: 0 } })).ok).toBe(false);
  });
});

describe('the incremental start check', () => {
  it('waits until eight bytes have arrived', () => {
    expect(checkBspStart(Buffer.from('VBS'))).toBeNull();
  });

  it('refuses a wrong magic from its first byte', () => {
    expect(checkBspStart(Buffer.from('X'))).toMatchObject({ ok: false });
  });

  it('collects exactly the header bytes across chunks', () => {
    const file = buildBsp({ padding: 5000 });
    let collected: Uint8Array = new Uint8Array(0);
    for (let at = 0; at < file.length; at += 100) collected = takeHeaderBytes(collected, file.subarray(at, at + 100));
    expect(Buffer.from(collected)).toEqual(file.subarray(0, BSP_HEADER_BYTES));
  });
});

describe('the map file name', () => {
  it('gives the map name without .bsp', () => {
    expect(parseMapFileName('cp_badlands_rc2.bsp')).toEqual({ ok: true, name: 'cp_badlands_rc2' });
  });

  it.each(['Cp_Upper.bsp', 'ab.bsp', 'cp_x.BSP', '../etc.bsp', 'cp x.bsp', 'cp_map.bsp.zip', `${'a'.repeat(65)}.bsp`])('refuses %s', (name) => {
    expect(parseMapFileName(name).ok).toBe(false);
  });
});
