import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Relative specifiers of static imports, re-exports, type imports and dynamic imports. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\1/g;

/**
 * A digest of some source files and of every source file they import, transitively (relative
 * imports only: a dependency's version is named elsewhere). What a packed database was built
 * from: the migrations it ran and the code that seeded it. Type-only imports count too, which may
 * rebuild a template for a change that could not alter it, never the other way round.
 */
export function sourceDigest(sourceRoot: string, entries: readonly string[]): string {
  const seen = new Set<string>();
  const pending = entries.map((entry) => resolve(sourceRoot, entry));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = sourceFile(resolve(dirname(file), match[2]));
      if (target) pending.push(target);
    }
  }
  const hash = createHash('sha256');
  for (const file of [...seen].sort()) hash.update(`${relative(sourceRoot, file)}\0${readFileSync(file, 'utf8')}\0`);
  return hash.digest('hex').slice(0, 16);
}

/** The TypeScript source a specifier names (`./x`, `./x.js`, `./dir`), if it is one of ours. */
function sourceFile(base: string): string | undefined {
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [stem, `${stem}.ts`, join(stem, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}
