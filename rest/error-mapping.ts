/** The one error mapping lives with the door-neutral exchange (src/door/error-answer.ts). */
export { statusOfDomainError, toHttpError } from '../src/door/error-answer';
