/**
 * Gait presets (docs/locomotion.md "Multi-limb gaits"): the phase offsets of common patterns for the
 * cyclicPath controllers (limbs) on one root body. The limbs are told apart by where their paths sit in the
 * root frame: side from the sign of the path centroid's x (+X is the creature's left), front to back by its
 * z. Every limb also gets the first limb's rate, so the pattern holds.
 *
 *   tripod      (6 legs)  L1 R2 L3 at 0, R1 L2 R3 at ½ — two alternating tripods, the fast insect gait
 *   wave        (6 legs)  one leg at a time, back to front on the left then on the right: L3 0, L2 ⅙, L1 ⅓,
 *                         R3 ½, R2 ⅔, R1 ⅚ — slow, five feet down most of the time
 *   trot        (4 legs)  diagonal pairs: LF RH at 0, RF LH at ½
 *   walk        (4 legs)  lateral sequence LH 0, LF ¼, RH ½, RF ¾ — three feet down most of the time
 *   alternating (2 limbs) left 0, right ½ (two arms pulling in turn)
 *
 * Presets set phaseOffset (and rate); paths, chains and steering are the artist's.
 */
import type { CyclicPathController, RigDocument } from '../rig/schema';
import { fail, finishEdit, type EditResult } from './editResult';

export type GaitPreset = 'tripod' | 'wave' | 'trot' | 'walk' | 'alternating';

export interface GaitPresetInfo { preset: GaitPreset; limbs: number; label: string; description: string }

export const GAIT_PRESETS: readonly GaitPresetInfo[] = [
  { preset: 'tripod', limbs: 6, label: 'Tripod', description: 'Six legs: two alternating tripods (L1 R2 L3, then R1 L2 R3)' },
  { preset: 'wave', limbs: 6, label: 'Wave', description: 'Six legs: one at a time, back to front, left side then right' },
  { preset: 'trot', limbs: 4, label: 'Trot', description: 'Four legs: diagonal pairs in turn' },
  { preset: 'walk', limbs: 4, label: 'Walk', description: 'Four legs: one at a time, LH LF RH RF' },
  { preset: 'alternating', limbs: 2, label: 'Alternating', description: 'Two limbs: left, then right half a cycle later' },
];

/** A limb (controller) with where its path sits in the root frame. */
export interface Limb { index: number; name: string; side: 'l' | 'r'; x: number; z: number }

const centroid = (c: CyclicPathController): [number, number] => {
  const n = c.controlPoints.length;
  return [c.controlPoints.reduce((a, p) => a + p[0], 0) / n, c.controlPoints.reduce((a, p) => a + p[2], 0) / n];
};

/** The cyclicPath controllers on `root` (default: the first cyclicPath controller's root), with sides. */
export function limbsOf(rig: RigDocument, root?: string): Limb[] {
  const first = rig.controllers.find((c) => c.type === 'cyclicPath');
  const r = root ?? first?.root;
  const limbs: Limb[] = [];
  rig.controllers.forEach((c, index) => {
    if (c.type !== 'cyclicPath' || c.root !== r) return;
    const [x, z] = centroid(c);
    limbs.push({ index, name: c.name, side: x >= 0 ? 'l' : 'r', x, z });
  });
  return limbs;
}

/** Phase offset of each limb for `preset`, or a message naming what does not fit. */
export function gaitPresetPhases(limbs: readonly Limb[], preset: GaitPreset): { phases: Map<number, number> } | { error: string } {
  const info = GAIT_PRESETS.find((p) => p.preset === preset);
  if (!info) return { error: `unknown gait preset "${preset}" (one of ${GAIT_PRESETS.map((p) => p.preset).join(', ')})` };
  if (limbs.length !== info.limbs) {
    return { error: `the ${preset} gait is for ${info.limbs} limbs on one root body; this root has ${limbs.length} cyclicPath controller${limbs.length === 1 ? '' : 's'}` };
  }
  // Each side front (largest z) to back.
  const side = (s: 'l' | 'r') => limbs.filter((l) => l.side === s).sort((a, b) => b.z - a.z || a.index - b.index);
  const L = side('l'), R = side('r');
  const per = info.limbs / 2;
  if (L.length !== per || R.length !== per) {
    return { error: `the ${preset} gait needs ${per} limbs on each side (path centroid x > 0 is the left); found ${L.length} left (${L.map((l) => l.name).join(', ')}) and ${R.length} right (${R.map((l) => l.name).join(', ')})` };
  }
  const phases = new Map<number, number>();
  const set = (l: Limb, p: number) => phases.set(l.index, p);
  switch (preset) {
    case 'tripod': set(L[0]!, 0); set(R[1]!, 0); set(L[2]!, 0); set(R[0]!, 0.5); set(L[1]!, 0.5); set(R[2]!, 0.5); break;
    case 'wave': set(L[2]!, 0); set(L[1]!, 1 / 6); set(L[0]!, 2 / 6); set(R[2]!, 3 / 6); set(R[1]!, 4 / 6); set(R[0]!, 5 / 6); break;
    case 'trot': set(L[0]!, 0); set(R[1]!, 0); set(R[0]!, 0.5); set(L[1]!, 0.5); break;
    case 'walk': set(L[1]!, 0); set(L[0]!, 0.25); set(R[1]!, 0.5); set(R[0]!, 0.75); break;
    case 'alternating': set(L[0]!, 0); set(R[0]!, 0.5); break;
  }
  return { phases };
}

/** The rig with `preset`'s phase offsets (rounded to 1e-9) and the first limb's rate on every limb of the
 *  root. Throws with the reason when the preset does not fit (wrong number of limbs, or of limbs a side). */
export function applyGaitPreset(rig: RigDocument, preset: GaitPreset, root?: string): RigDocument {
  const limbs = limbsOf(rig, root);
  const result = gaitPresetPhases(limbs, preset);
  if ('error' in result) throw new Error(result.error);
  const rate = (rig.controllers[limbs[0]!.index] as CyclicPathController).rate;
  return {
    ...rig,
    controllers: rig.controllers.map((c, i) => {
      const p = result.phases.get(i);
      return p === undefined || c.type !== 'cyclicPath' ? c : { ...c, phaseOffset: Math.round(p * 1e9) / 1e9, rate };
    }),
  };
}

/** The editor's edit: `preset` on the limbs that share `controller`'s root (one undo step), or why not. */
export function setGaitPreset(rig: RigDocument, controller: string, preset: GaitPreset): EditResult {
  const c = rig.controllers.find((x) => x.name === controller);
  if (!c || c.type !== 'cyclicPath') return fail(`${controller} gait preset`, `no cyclicPath controller named "${controller}"`);
  const result = gaitPresetPhases(limbsOf(rig, c.root), preset);
  if ('error' in result) return fail(`${controller} gait preset`, `${result.error}.`);
  return finishEdit(rig, applyGaitPreset(rig, preset, c.root));
}
