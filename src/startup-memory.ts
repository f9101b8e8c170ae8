import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often, and for how many looks at most, the young generation is offered a collection after start-up. */
const LOOK_EVERY_MS = 500;
const LOOKS = 60;
/** A young generation this small is back to what an idle server needs. */
const SHRUNK_BYTES = 4 * 1024 * 1024;

type CollectGarbage = (options: { type: 'minor' }) => void;

/**
 * Gives back the young generation that start-up grew. Loading the modules, migrating and booting
 * the embedded database allocate fast enough for V8 to grow its young generation to its 32 MB cap,
 * and V8 shrinks it only in a collection that finds the last 5 s of allocation quiet, which an idle
 * server, allocating nearly nothing, never has. So from the start a young collection (about 1 ms)
 * is offered every LOOK_EVERY_MS until V8 has shrunk it, about 5 s after the server listens
 * (measured: new space 32 MB -> 1 MB, the idle process 187-197 MB -> 157-168 MB resident,
 * `npm run bench -- cold-start`), and
 * never past LOOKS. Under load V8 grows it again as far as the work needs: throughput is not
 * capped the way `--max-semi-space-size` would cap it.
 *
 * V8 hands out its collector only to a context made while `--expose-gc` is set, hence the flag for
 * the moment of making one, then cleared: no other code gets a `gc` global. Returns a stop.
 */
export function releaseStartupMemory(): () => void {
  setFlagsFromString('--expose-gc');
  let collect: CollectGarbage | undefined;
  try {
    collect = runInNewContext('gc') as CollectGarbage;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  let looks = 0;
  const timer = setInterval(() => {
    collect?.({ type: 'minor' });
    if (++looks >= LOOKS || newSpaceBytes() <= SHRUNK_BYTES) stop();
  }, LOOK_EVERY_MS).unref();
  const stop = () => {
    clearInterval(timer);
    collect = undefined;
  };
  return stop;
}

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
