/** `npm install` runs this (postinstall): see pglite-template.ts. A failure only costs start-up time. */
import { buildTemplate } from './pglite-template';

buildTemplate().then(
  (path) => console.log(`embedded database template ready: ${path}`),
  (error) => console.warn(`embedded database template not built (${error instanceof Error ? error.message : error}); first start will be slower`),
);
