/** The HTTP layer's error type lives with the door-neutral exchange (src/door/http-refusal.ts). */
export { HttpError } from '../src/door/http-refusal';
