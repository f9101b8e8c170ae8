// The server as `npm start` runs it: src/start.ts and what it imports bundled into a few files
// (dist/server/), instead of ~1,400 modules each resolved, read and compiled by Node's ESM loader.
// Resolving and loading modules was about half of a first start's main thread (measured with
// --cpu-prof, `npm run bench -- cold-start`); the bundle takes it to a small part.
//
// Some packages stay outside, loaded from node_modules as usual: native addons (uWebSockets.js,
// ws's optional bufferutil and utf-8-validate), PGlite (it reads its WASM and data files next to
// its own module), socket.io (it serves its browser client from files beside its own module,
// found through __dirname, which a bundled ES module does not have) and the AWS SDK (loaded only
// when S3 storage is configured). The bundle must therefore live inside the project, where
// node_modules is found by walking up.
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const EXTERNAL = [
  'uWebSockets.js',
  'bufferutil',
  'utf-8-validate',
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  'socket.io',
  '@aws-sdk/*',
];

// Into the folder named by the first argument (default dist/server), emptied first; the entry is <outdir>/start.js.
const outdir = resolve(process.argv[2] ?? 'dist/server');
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { start: 'src/start.ts' },
  bundle: true,
  // The entry imports the server's modules only after reading the configuration: split, a
  // refused configuration still exits before they load.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  external: EXTERNAL,
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Names stay: the ORM and error reports read constructors' names. Not minifying identifiers is
  // not enough: esbuild renames a class that refers to itself (`class _Migrator`), and MikroORM,
  // finding no extension named 'Migrator', imported a second copy of itself from node_modules.
  keepNames: true,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
});
await escapeNonAscii(outdir);
// The live page's files, beside the module that serves them (new URL('./public/', import.meta.url)).
await cp('realtime/public', join(outdir, 'public'), { recursive: true });
console.log(`server bundled in ${outdir}`);

/**
 * V8 keeps a module's source for as long as the module lives, one byte per character only if
 * every character is Latin-1: one '〇' in a regular expression (fast-redact's, through pino) made
 * the 2.8 MB main chunk a 5.3 MB string in the heap. esbuild escapes strings but not regular
 * expression literals, so what is left is escaped here. A \uXXXX escape means the same
 * character in a string, a template, an identifier and a regular expression with or without the
 * u flag; a character beyond the BMP has no escape meaning the same in all of them, nor has one
 * already escaped (`\〇`), so either stops the build instead of being guessed at. (The source
 * maps' columns after such a character move by five.)
 */
async function escapeNonAscii(folder) {
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.js')) continue;
    const path = join(folder, name);
    const code = await readFile(path, 'utf8');
    if (!/[^\x00-\x7f]/.test(code)) continue;
    const escaped = code.replace(/(\\*)([^\x00-\x7f])/gu, (_, backslashes, char) => {
      const unit = char.codePointAt(0);
      if (unit > 0xffff || backslashes.length % 2 === 1) {
        throw new Error(`${name}: ${JSON.stringify(backslashes + char)} (U+${unit.toString(16)}) has no escape valid everywhere`);
      }
      return `${backslashes}\\u${unit.toString(16).padStart(4, '0')}`;
    });
    await writeFile(path, escaped);
  }
}
