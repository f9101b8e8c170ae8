import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/* The structural rules of docs/http-framing.md and issue 20, read off the source tree. */
const root = join(import.meta.dirname, '..', '..');

function sources(folder: string): Array<{ path: string; text: string }> {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: relative(root, path), text: readFileSync(path, 'utf8') };
    });
}

/** The code of a file without its comments (a comment may name what the code must not do). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
const importsOf = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
const production = ['src', 'rest', 'realtime', 'host', 'schema'].flatMap(sources);

describe('the dependency direction', () => {
  it('schema/ imports nothing from src/, rest/, realtime/ or host/', () => {
    const offending = sources('schema').filter(({ text }) => importsOf(text).some((i) => /^\.\.\/+(\.\.\/)*(src|rest|realtime|host)\//.test(i)));
    expect(offending.map((f) => f.path)).toEqual([]);
  });

  it('src/ imports no transport: neither express, nor uWebSockets.js, nor socket.io', () => {
    const transport = /^(express|uWebSockets\.js|uwebsockets-express|socket\.io|socket\.io-client|@socket\.io\/.*)$/;
    const offending = sources('src').filter(({ text }) => importsOf(text).some((i) => transport.test(i)));
    expect(offending.map((f) => f.path)).toEqual([]);
  });

  it('rest/ and realtime/ do not import each other', () => {
    const restToRealtime = sources('rest').filter(({ text }) => importsOf(text).some((i) => /\/realtime\//.test(i)));
    const realtimeToRest = sources('realtime').filter(({ text }) => importsOf(text).some((i) => /\/rest\//.test(i)));
    expect([...restToRealtime, ...realtimeToRest].map((f) => f.path)).toEqual([]);
  });
});

describe('wiring in one root', () => {
  it('builds repositories only in src/composition', () => {
    const offending = production.filter(({ path, text }) => !path.startsWith('src/composition/') && /new [A-Z]\w*Repository\(/.test(text));
    expect(offending.map((f) => f.path)).toEqual([]);
  });

  it('reads the machine time only through src/clock/: everything else gets the injected clock', () => {
    // `Date.now` called or passed as a default, and `new Date()` with no argument (the present).
    const offending = production.filter(({ path, text }) => !path.startsWith('src/clock/') && /Date\.now\b|new Date\(\s*\)/.test(withoutComments(text)));
    expect(offending.map((f) => f.path)).toEqual([]);
  });
});

describe('credentials', () => {
  it('rest/ reads no cookie itself: a route takes what it needs from its credential step, which reads the presented request', () => {
    const offending = sources('rest').filter(({ text }) => /headers\.cookie|\bread\w*Cookie\(/.test(withoutComments(text)));
    expect(offending.map((f) => f.path)).toEqual([]);
  });
});
