import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { installLastResort } from '../../src/observability/last-resort';
import { captureLogs } from '../support/log-capture';

it('logs an uncaught exception at fatal and an unhandled rejection at error, and lets the process serve on', () => {
  const logs = captureLogs('info');
  const events = new EventEmitter();
  const remove = installLastResort(events, logs.logger);
  events.emit('uncaughtException', new RangeError('Maximum call stack size exceeded'));
  events.emit('unhandledRejection', new Error('lost promise'));
  const lines = logs.lines().map((line) => JSON.parse(line) as { level: number; msg: string; err: { message: string } });
  expect(lines.map(({ level, msg, err }) => ({ level, msg, error: err.message }))).toEqual([
    { level: 60, msg: 'uncaught exception escaped every handler; serving on', error: 'Maximum call stack size exceeded' },
    { level: 50, msg: 'unhandled promise rejection; serving on', error: 'lost promise' },
  ]);
  remove();
  expect(events.listenerCount('uncaughtException') + events.listenerCount('unhandledRejection')).toBe(0);
});
