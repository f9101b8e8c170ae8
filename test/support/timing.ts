import { poll } from './poll';

/** Elapsed milliseconds of `work`, with its result: for the "answers within" figures of fault tests. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Polls `probe` (the one poll, test/support/poll.ts) until it answers something other than null, or fails naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | null>, withinMs: number): Promise<T> {
  return (await poll(probe, (value) => value !== null, { what, withinMs })) as T;
}

/** With FAULT_FIGURES=1, prints a measured figure (the README's "Failure behaviour" table is made of these). */
export function figure(name: string, ms: number): void {
  if (process.env.FAULT_FIGURES) process.stdout.write(`figure: ${name}: ${Math.round(ms)} ms\n`);
}
