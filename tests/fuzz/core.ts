/**
 * Seeded mutation fuzzing of the shipped rigs (assets/creatures/*.rig.json) and particle scenes
 * (assets/examples/*.json): each mutant goes through validation, and what is accepted is built into a
 * simulation and stepped. A case fails when anything throws where it must not (validateRig never throws;
 * createSimulation / createParticleSimulation never throw on what validation accepted; stepping never
 * throws), when an accepted document runs to a non-finite number, when a refusal names no field, or when
 * a case takes longer than its wall-clock budget (checked between steps).
 *
 * Used by tests/unit/fuzz/mutation.test.ts (1,000 mutants per file per run) and scripts/fuzz.ts (10,000+).
 */
import { rng } from '../unit/physics/helpers';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { validateRig } from '../../shared/rig';
import type { RigDocument } from '../../shared/rig';
import { createSimulation } from '../../shared/runtime';
import { createParticleSimulation, loadParticleScene, ParticleSceneError } from '../../shared/physics/particles';
import { createParticleSimulation as createRigParticleSimulation } from '../../shared/runtime/particles';
import { registerCyclicPathController } from '../../shared/gait/register';

registerCyclicPathController();

export interface Corpus { name: string; kind: 'rig' | 'scene'; text: string }

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** Every shipped rig and particle scene. */
export function shippedCorpus(): Corpus[] {
  const out: Corpus[] = [];
  const creatures = path.join(root, 'assets', 'creatures');
  for (const f of readdirSync(creatures).filter((n) => n.endsWith('.rig.json')).sort()) out.push({ name: f, kind: 'rig', text: readFileSync(path.join(creatures, f), 'utf8') });
  const examples = path.join(root, 'assets', 'examples');
  for (const f of readdirSync(examples).filter((n) => n.endsWith('.json')).sort()) out.push({ name: f, kind: 'scene', text: readFileSync(path.join(examples, f), 'utf8') });
  return out;
}

/** mulberry32, the tests' seedable PRNG (tests/unit/physics/helpers.ts). */
export { rng };

type Json = unknown;
type Container = Record<string, Json> | Json[];

/** Every (container, key) in a JSON value, to pick a mutation site from. */
function sites(value: Json): Array<{ parent: Container; key: string | number }> {
  const out: Array<{ parent: Container; key: string | number }> = [];
  const stack: Json[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) v.forEach((item, i) => { out.push({ parent: v, key: i }); stack.push(item); });
    else if (typeof v === 'object' && v !== null) for (const [k, item] of Object.entries(v)) { out.push({ parent: v as Record<string, Json>, key: k }); stack.push(item); }
  }
  return out;
}

/** Values that broke things before: extremes of double precision, zero, tiny, huge, non-finite. */
const SPECIAL_NUMBERS = [0, -0, 1, -1, 1e-300, 5e-324, -5e-324, 1e-12, 1e-9, 1e-5, 1e15, 1e308, -1e308, 1.7976931348623157e308, 2 ** 53, -(2 ** 53), 2 ** 31, 0.5, Number.NaN, Infinity, -Infinity, 1e6, -1e6, 1e9];

function randomValue(r: () => number, old: Json): Json {
  const pick = Math.floor(r() * 12);
  if (typeof old === 'number' && r() < 0.85) {
    const n = r();
    if (n < 0.3) return SPECIAL_NUMBERS[Math.floor(r() * SPECIAL_NUMBERS.length)]!;
    if (n < 0.55) return old * 10 ** (Math.floor(r() * 12) - 6);
    if (n < 0.65) return -old;
    if (n < 0.8) return old * (0.5 + r());
    return old + (r() - 0.5);
  }
  switch (pick % 8) {
    case 0: return null;
    case 1: return SPECIAL_NUMBERS[Math.floor(r() * SPECIAL_NUMBERS.length)]!;
    case 2: return '';
    case 3: return 'x'.repeat(Math.floor(r() * 300));
    case 4: return [];
    case 5: return {};
    case 6: return r() < 0.5;
    default: return typeof old === 'string' ? `${old}_` : String(old);
  }
}

/** One mutant of `source` (a parsed document, not modified): 1–4 edits at random sites. */
export function mutate(source: Json, r: () => number): { value: Json; note: string } {
  const value = structuredClone(source);
  const notes: string[] = [];
  const edits = r() < 0.6 ? 1 : 2 + Math.floor(r() * 3);
  for (let e = 0; e < edits; e++) {
    const all = sites(value);
    if (all.length === 0) break;
    // Two thirds of the edits hit a number: that is where documents validate and then misbehave.
    const numeric = all.filter((s) => typeof (s.parent as Record<string | number, Json>)[s.key] === 'number');
    const pool = numeric.length > 0 && r() < 0.67 ? numeric : all;
    const { parent, key } = pool[Math.floor(r() * pool.length)]!;
    const old = (parent as Record<string | number, Json>)[key];
    const op = r();
    if (op < 0.6) {
      const next = randomValue(r, old);
      (parent as Record<string | number, Json>)[key] = next;
      notes.push(`${String(key)}=${typeof next === 'string' ? `"${next.slice(0, 12)}"` : Array.isArray(next) ? '[]' : typeof next === 'object' && next !== null ? '{}' : String(next)}`);
    } else if (op < 0.72) {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      notes.push(`-${String(key)}`);
    } else if (op < 0.84 && Array.isArray(parent)) {
      parent.splice(key as number, 0, structuredClone(old));
      notes.push(`dup ${String(key)}`);
    } else if (op < 0.9 && Array.isArray(old)) {
      // Grow an array (many bodies, many control points...).
      const grown = Array.from({ length: 1 + Math.floor(r() * 3000) }, () => structuredClone(old[0]));
      (parent as Record<string | number, Json>)[key] = grown;
      notes.push(`${String(key)}×${grown.length}`);
    } else if (op < 0.95 && typeof old === 'object' && old !== null && !Array.isArray(old)) {
      // Swap in a sibling's value (a body where a joint goes, a name of another kind...).
      const others = all.filter((s) => s.key !== key);
      const donor = others[Math.floor(r() * others.length)];
      if (donor) (parent as Record<string | number, Json>)[key] = structuredClone((donor.parent as Record<string | number, Json>)[donor.key]);
      notes.push(`swap ${String(key)}`);
    } else {
      (parent as Record<string | number, Json>)[key] = randomValue(r, old);
      notes.push(`${String(key)}~`);
    }
  }
  return { value, note: notes.join(', ') };
}

/** A mutant as text: the value serialised, sometimes also cut short or with a byte changed. */
export function mutateText(text: string, r: () => number): string {
  const op = r();
  if (op < 0.4) return text.slice(0, Math.floor(r() * text.length));
  const i = Math.floor(r() * text.length);
  if (op < 0.7) return text.slice(0, i) + String.fromCharCode(32 + Math.floor(r() * 95)) + text.slice(i + 1);
  if (op < 0.85) return text.slice(0, i) + ['NaN', '-Infinity', '1e999', '{', ']', '"', ',', '//', '\u0000'][Math.floor(r() * 9)] + text.slice(i);
  return '';
}

export interface CaseResult {
  outcome: 'refused' | 'ran' | 'failed';
  /** Why it failed (failed only). */
  problem?: string;
  steps?: number;
}

export interface RunOptions {
  /** Simulated seconds to step an accepted document (capped by maxSteps). */
  seconds: number;
  maxSteps: number;
  /** Wall-clock budget per case (ms); exceeding it fails the case (checked between steps). */
  budgetMs: number;
}

const JSON_LEVEL = /^(is not valid JSON|the file is empty|a rig must be a JSON object|is \d|would be more than|nests deeper|cannot be read as a rig)/;

/** Every refusal must say where: a field path, or (for a document-level problem) a sentence that places it. */
/** The line validateRig adds after its first problems when there are too many to list (capProblems): it
 *  counts the others, each of which named its field; it is not a refusal of its own. */
const CAP_LINE = /^… and \d+ more problems$/;

function namesTheField(path: string, message: string): boolean {
  return path !== '' || JSON_LEVEL.test(message) || CAP_LINE.test(message);
}

function finite(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) return false;
  return true;
}

/** Validate, build and step one rig mutant (a value or a text). */
export function runRigCase(input: unknown, options: RunOptions): CaseResult {
  let validation;
  try {
    validation = validateRig(input);
  } catch (error) {
    return { outcome: 'failed', problem: `validateRig threw: ${(error as Error).message}` };
  }
  if (!validation.ok) {
    const unnamed = validation.problems.find((p) => !namesTheField(p.path, p.message));
    return unnamed ? { outcome: 'failed', problem: `refusal names no field: "${unnamed.message}"` } : { outcome: 'refused' };
  }
  return runAccepted(validation.rig, options);
}

function runAccepted(rig: RigDocument, options: RunOptions): CaseResult {
  const rigid = rig.solver === 'rigid' ? runSolver(rig, options) : null;
  if (rigid !== null && rigid.outcome === 'failed') return rigid;
  // Every accepted rig also runs under the particle solver (the editor's Rigid | Particle switch).
  const particle = runSolver({ ...rig, solver: 'particle' }, options);
  return particle.outcome === 'failed' ? { ...particle, problem: `under the particle solver: ${particle.problem}` } : rigid ?? particle;
}

function runSolver(rig: RigDocument, options: RunOptions): CaseResult {
  const started = performance.now();
  const steps = Math.min(options.maxSteps, Math.ceil(options.seconds / rig.simulation.dt));
  if (rig.solver === 'particle') {
    let sim;
    try { sim = createRigParticleSimulation(rig); } catch (error) { return { outcome: 'failed', problem: `createParticleSimulation threw on a valid rig: ${(error as Error).message}` }; }
    for (let s = 0; s < steps; s++) {
      try { sim.step(); } catch (error) { return { outcome: 'failed', problem: `particle step ${s} threw: ${(error as Error).message}` }; }
      if (performance.now() - started > options.budgetMs) return { outcome: 'failed', problem: `over ${options.budgetMs} ms after ${s + 1} of ${steps} steps` };
    }
    if (!finite(sim.positions)) return { outcome: 'failed', problem: 'a particle position is not finite' };
    return { outcome: 'ran', steps };
  }
  let sim;
  try { sim = createSimulation(rig); } catch (error) { return { outcome: 'failed', problem: `createSimulation threw on a valid rig: ${(error as Error).message}` }; }
  for (let s = 0; s < steps; s++) {
    try { sim.step(); } catch (error) { return { outcome: 'failed', problem: `step ${s} threw: ${(error as Error).message}` }; }
    if (performance.now() - started > options.budgetMs) return { outcome: 'failed', problem: `over ${options.budgetMs} ms after ${s + 1} of ${steps} steps` };
  }
  for (const body of sim.bodyNames) {
    const pose = sim.bodyPose(body);
    if (!finite(pose.position) || !finite(pose.rotation)) return { outcome: 'failed', problem: `body ${body} is not finite after ${steps} steps` };
  }
  return { outcome: 'ran', steps };
}

/** Load, build and step one particle-scene mutant. */
export function runSceneCase(input: unknown, options: RunOptions): CaseResult {
  let scene;
  try {
    scene = loadParticleScene(input);
  } catch (error) {
    if (!(error instanceof ParticleSceneError)) return { outcome: 'failed', problem: `loadParticleScene threw ${(error as Error).name}: ${(error as Error).message}` };
    const unnamed = error.problems.find((p) => !namesTheField(p.path, p.message));
    return unnamed ? { outcome: 'failed', problem: `refusal names no field: "${unnamed.message}"` } : { outcome: 'refused' };
  }
  const started = performance.now();
  let sim;
  try { sim = createParticleSimulation(scene); } catch (error) {
    if (error instanceof ParticleSceneError) return { outcome: 'refused' };
    return { outcome: 'failed', problem: `createParticleSimulation threw on a loaded scene: ${(error as Error).message}` };
  }
  const steps = Math.min(options.maxSteps, Math.ceil(options.seconds / scene.settings.dt));
  for (let s = 0; s < steps; s++) {
    try { sim.step(); } catch (error) { return { outcome: 'failed', problem: `particle step ${s} threw: ${(error as Error).message}` }; }
    if (performance.now() - started > options.budgetMs) return { outcome: 'failed', problem: `over ${options.budgetMs} ms after ${s + 1} of ${steps} steps` };
  }
  if (!finite(sim.positions)) return { outcome: 'failed', problem: 'a particle position is not finite' };
  return { outcome: 'ran', steps };
}

export interface FuzzReport { cases: number; refused: number; ran: number; failures: Array<{ file: string; seed: number; note: string; problem: string }> }

/** `count` mutants of each corpus file from `seed`: 80 % value mutations, 20 % text mutations. */
export function fuzz(corpus: readonly Corpus[], count: number, seed: number, options: RunOptions): FuzzReport {
  const report: FuzzReport = { cases: 0, refused: 0, ran: 0, failures: [] };
  corpus.forEach((file, fileIndex) => {
    const parsed = JSON.parse(file.text) as Json;
    for (let i = 0; i < count; i++) {
      const caseSeed = (seed * 1_000_003 + fileIndex * 100_003 + i) >>> 0;
      const r = rng(caseSeed);
      let input: unknown, note: string;
      if (r() < 0.8) ({ value: input, note } = mutate(parsed, r));
      else { input = mutateText(file.text, r); note = 'text'; }
      const result = file.kind === 'rig' ? runRigCase(input, options) : runSceneCase(input, options);
      report.cases++;
      if (result.outcome === 'refused') report.refused++;
      else if (result.outcome === 'ran') report.ran++;
      else report.failures.push({ file: file.name, seed: caseSeed, note, problem: result.problem! });
    }
  });
  return report;
}
