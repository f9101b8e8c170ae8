import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../src/observability/logger';

export interface CapturedLogs {
  logger: Logger;
  /** Every JSON line written so far. */
  lines(): string[];
  /** Lines at error level or above, or carrying a stack trace. */
  errors(): string[];
}

/** A real pino logger at `level` whose output the test can read (pino's JSON lines). */
export function captureLogs(level = 'info'): CapturedLogs {
  let text = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  const lines = () => text.split('\n').filter((line) => line.trim() !== '');
  return {
    logger: createLogger(level, sink),
    lines,
    errors: () => lines().filter((line) => (JSON.parse(line) as { level: number }).level >= 50 || /\n\s+at /.test(line) || line.includes('"stack"')),
  };
}
