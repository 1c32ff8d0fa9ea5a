/**
 * The garbage a rigid step makes: `npx tsx bench/garbage.ts [--n 128] [--steps 100]` steps ragdoll11 × n (motors
 * on) 300 steps, then samples the heap over `steps` more (V8's sampling heap profiler through node:inspector,
 * the objects the scavenger collects included) and prints the KB a step, by the function that allocated and
 * its caller. A step should make none: what shows here is mostly doubles V8 boxed for a call it did not inline
 * (docs/physics.md "Speed": "One isolate per engine").
 */
import { Session } from 'node:inspector/promises';
import { createMarionetteWorld } from './marionetteEngine';
import { loadRagdollFile } from './runBenchmark';
import { buildRagdollScene } from './scene';
import { World } from '../shared/physics/world';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) { console.error(`garbage: --${name} must be an integer ≥ 1`); process.exit(2); }
  return v;
};
const n = arg('n', 128), steps = arg('steps', 100);
const world = createMarionetteWorld((s) => new World(s), buildRagdollScene(loadRagdollFile(), n, true));
for (let k = 0; k < 300; k++) world.step();

interface ProfileNode { callFrame: { functionName: string; url: string }; selfSize: number; children?: ProfileNode[] }
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
for (let k = 0; k < steps; k++) world.step();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
session.disconnect();

const bySite = new Map<string, number>();
let total = 0;
const name = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} (${node.callFrame.url.split('/').pop()})`;
const walk = (node: ProfileNode, caller: string) => {
  const here = name(node);
  if (node.selfSize > 0) {
    const key = `${here} ← ${caller}`;
    bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children ?? []) walk(child, here);
};
walk(profile.head, '');
const kb = (bytes: number) => (bytes / steps / 1024).toFixed(1);
console.log(`ragdoll11 × ${n}, motors on: ${kb(total)} KB of garbage a step (${steps} steps sampled)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${kb(bytes).padStart(7)} KB  ${site}`);
