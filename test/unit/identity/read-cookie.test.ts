import { describe, expect, it } from 'vitest';
import { readCookie } from '../../../src/identity/session-cookie';

describe('reading a cookie from a Cookie header', () => {
  it('finds the named cookie among others', () => {
    expect(readCookie('theme=dark; league_session=abc.def; lang=en', 'league_session')).toBe('abc.def');
  });

  it('takes the first of duplicates', () => {
    expect(readCookie('league_session=first; league_session=second', 'league_session')).toBe('first');
  });

  it('answers undefined when the cookie, or the header, is absent', () => {
    expect(readCookie('theme=dark', 'league_session')).toBeUndefined();
    expect(readCookie('', 'league_session')).toBeUndefined();
    expect(readCookie(undefined, 'league_session')).toBeUndefined();
  });

  it('does not take a cookie whose name only ends with the name', () => {
    expect(readCookie('xleague_session=wrong; league_session=right', 'league_session')).toBe('right');
  });

  it('skips a part without an equals sign, even when a later part has one', () => {
    expect(readCookie('league_session; league_session=value', 'league_session')).toBe('value');
  });

  it('ignores the spaces around names and values', () => {
    expect(readCookie('  league_session  =  spaced  ;next=1', 'league_session')).toBe('spaced');
  });

  it('takes a quoted value without its quotes', () => {
    expect(readCookie('league_session="quoted value"', 'league_session')).toBe('quoted value');
  });

  it('percent-decodes a value, and answers undefined for a malformed escape', () => {
    expect(readCookie('league_session=a%2Fb%20c', 'league_session')).toBe('a/b c');
    expect(readCookie('league_session=bad%E0%A4%A', 'league_session')).toBeUndefined();
  });

  it('keeps an equals sign inside the value', () => {
    expect(readCookie('league_session=abc==; x=1', 'league_session')).toBe('abc==');
  });
});
