/** The one input parse lives with the door-neutral exchange (src/door/route-input.ts). */
export { parseOrThrow, parseRouteInput } from '../src/door/route-input';
