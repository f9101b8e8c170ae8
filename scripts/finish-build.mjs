// After `tsc -p tsconfig.build.json`: makes dist/ runnable by plain Node. The sources import
// relative modules without an extension (tsx and the bundler resolution allow it); Node's ESM
// loader does not, so each relative specifier is rewritten to the emitted file (`./x.js` or
// `./x/index.js`). Only files tsc wrote since the last pass are touched, which keeps a rebuild
// fast. The live page's static files are copied beside the module that serves them.
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const dist = resolve('dist');
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\2/g;

function resolved(fromFile, specifier) {
  if (/\.(m?js|json)$/.test(specifier)) return specifier;
  const base = resolve(dirname(fromFile), specifier);
  if (existsSync(`${base}.js`)) return `${specifier}.js`;
  if (existsSync(join(base, 'index.js'))) return `${specifier}/index.js`;
  throw new Error(`${fromFile}: cannot resolve ${specifier}`);
}

async function* jsFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

const stampFile = join(dist, '.specifiers-fixed');
const lastPass = existsSync(stampFile) ? (await stat(stampFile)).mtimeMs : 0;
let rewritten = 0;
for await (const file of jsFiles(dist)) {
  if ((await stat(file)).mtimeMs < lastPass) continue;
  const source = await readFile(file, 'utf8');
  const output = source.replace(SPECIFIER, (_all, lead, quote, specifier) => `${lead}${quote}${resolved(file, specifier)}${quote}`);
  if (output !== source) {
    await writeFile(file, output);
    rewritten++;
  }
}
await cp('realtime/public', join(dist, 'realtime', 'public'), { recursive: true });
await writeFile(stampFile, new Date().toISOString());
console.log(`dist ready (${rewritten} modules' imports fixed)`);
