/**
 * Summarises a V8 .cpuprofile (from BENCH_CPU_PROFILE, see bench/serve.ts): the functions with the
 * most self time, the functions and the files with the most inclusive time (each counted once per
 * sample however deep it recurses), as shares of the samples; then each sample by area (the
 * nearest frame of ours or of a store client; Node's own frames count to their caller), as shares
 * of the busy samples. Async stacks end at each await, so inclusive time undercounts what a
 * request costs; the areas are the figure to compare between profiles.
 *
 * `tsx bench/profile-summary.ts x.cpuprofile [rows]`
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [path, rowsArg] = process.argv.slice(2);
if (!path) throw new Error('usage: tsx bench/profile-summary.ts x.cpuprofile [rows]');
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;

const cwd = `file://${process.cwd()}/`;
const shortFile = (url: string) => url.replace(cwd, '').replace(/^.*node_modules\//, 'node_modules/') || '(native)';
const functionKey = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${shortFile(frame.url)}:${frame.lineNumber + 1}`;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const hits = new Map<number, number>();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);

const self = new Map<string, number>();
const inclusiveFunction = new Map<string, number>();
const inclusiveFile = new Map<string, number>();
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);
for (const [id, n] of hits) {
  const leaf = byId.get(id)!;
  add(self, functionKey(leaf.callFrame), n);
  const functions = new Set<string>();
  const files = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!.callFrame;
    functions.add(functionKey(frame));
    files.add(shortFile(frame.url));
  }
  for (const key of functions) add(inclusiveFunction, key, n);
  for (const key of files) add(inclusiveFile, key, n);
}

/** The area of a frame, or null to look at its caller (Node's own code, natives without a script). */
function areaOf(frame: CallFrame): string | null {
  if (['(idle)', '(garbage collector)', '(program)'].includes(frame.functionName)) return frame.functionName;
  const url = frame.url;
  if (!url || url.startsWith('node:')) return null;
  const rules: [RegExp, string][] = [
    [/@redis|redis-live-store|live-store-input|redis-scripts|observed-live-store/, 'Redis client and live store'],
    [/\/pg|kysely|mikro-orm|src\/db\//, 'Postgres (pg, kysely, MikroORM, repositories)'],
    [/src\/identity|credentials|authenticator/, 'identity'],
    [/src\/domain|src\/engine/, 'engine and domain'],
    [/realtime\//, 'realtime feed'],
    [/host\/|rest\/|src\/door|schema\//, 'door'],
    [/prom-client|observability/, 'metrics'],
  ];
  return rules.find(([pattern]) => pattern.test(url))?.[1] ?? `other: ${shortFile(url)}`;
}

const areas = new Map<string, number>();
for (const [id, n] of hits) {
  let area: string | null = null;
  for (let at: number | undefined = id; at !== undefined && area === null; at = parent.get(at)) area = areaOf(byId.get(at)!.callFrame);
  add(areas, area ?? `native: ${byId.get(id)!.callFrame.functionName}`, n);
}

const total = profile.samples.length;
const table = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [key, n] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${((100 * n) / total).toFixed(1).padStart(6)}%  ${key}`);
};
console.log(`${total} samples`);
table('self time by function', self);
table('inclusive time by function', inclusiveFunction);
table('inclusive time by file', inclusiveFile);
const busy = total - (areas.get('(idle)') ?? 0);
console.log('\nby area, as shares of the busy samples');
for (const [key, n] of [...areas].filter(([key]) => key !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, rows)) {
  console.log(`${((100 * n) / busy).toFixed(1).padStart(6)}%  ${key}`);
}
