/**
 * Builds the embedded database templates (see pglite-template.ts). `npm install` runs it
 * (postinstall), and `npm start` again before starting (prestart, with --if-missing): an install
 * that skipped the postinstall (npm 11 may, for a package's own scripts under some settings), or
 * a migration or seed changed since, would otherwise cost a first start initdb's and the seed's
 * seconds. A failure only costs start-up time.
 */
import { buildTemplates } from './pglite-template-build';
import { templatesBuilt } from './pglite-template';

const ifMissing = process.argv.includes('--if-missing');
if (ifMissing && templatesBuilt()) {
  // Already built: nothing to say on every start.
} else {
  const { seedDemo } = await import('../composition/demo-seed');
  await buildTemplates((db, now) => seedDemo(db, now)).then(
    (built) => console.log(`embedded database templates ready: ${built.join(', ')}`),
    (error) => console.warn(`embedded database templates not built (${error instanceof Error ? error.message : error}); first start will be slower`),
  );
}
