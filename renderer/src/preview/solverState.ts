/**
 * The solver store, the timeline inputs kept per solver and what the preview simulates now — the part of
 * particleMode.ts the preview client reads (client.ts asks previewSource() what to send to the worker).
 * Its own module so the client and particleMode.ts (which drives the client) do not import each other;
 * particleMode.ts re-exports all of it.
 */
import { create } from 'zustand';
import type { ParticleScene } from '../../../shared/physics/particles';
import type { RigDocument } from '../../../shared/rig';
import { useEditor } from '../state/store';
import type { PreviewInput } from '../../../shared/preview/input';
import type { ParticleRequest } from '../../../shared/preview/particleEngine';

/** rigid and articulated run the creature's rig (same bodies, motors, inputs, plots); particle its particle version. */
export type Solver = 'rigid' | 'articulated' | 'particle';

export interface ParticleSceneFile { name: string; scene: ParticleScene }

interface SolverState {
  solver: Solver;
  /** An open particle scene (an example), shown instead of a document; null when a creature is open. */
  scene: ParticleSceneFile | null;
}

export const useSolver = create<SolverState>()(() => ({ solver: 'rigid', scene: null }));

/** Timeline inputs of the solver family not shown now (particleMode.ts swaps them on a switch to or from Particle; Rigid and Articulated share theirs). */
export const stashed: Record<'rigid' | 'particle', PreviewInput[]> = { rigid: [], particle: [] };

// A different creature (opened, or closed for a scene) starts in the solver its rig asks for.
useEditor.subscribe((s, p) => {
  if (s.creature === p.creature) return;
  stashed.rigid = []; stashed.particle = [];
  useSolver.setState({ solver: s.document?.rig.solver ?? 'rigid', scene: null });
});

export interface PreviewSource {
  /** Same object while the same thing is shown (the client resends only when it changes). */
  key: object;
  rig: unknown;
  particles?: ParticleRequest;
}

const particleKeys = new WeakMap<object, PreviewSource>();
const rigidKeys = new WeakMap<object, PreviewSource>();
const articulatedKeys = new WeakMap<object, PreviewSource>();

/** What the preview should simulate now: the open scene, or the document's rig under the chosen solver. */
export function previewSource(rig: RigDocument | null): PreviewSource | null {
  const { solver, scene } = useSolver.getState();
  const cached = (map: WeakMap<object, PreviewSource>, k: object, make: () => PreviewSource) => {
    let v = map.get(k);
    if (!v) { v = make(); map.set(k, v); }
    return v;
  };
  if (scene) return cached(particleKeys, scene, () => ({ key: scene, rig: null, particles: { scene: scene.scene, name: scene.name } }));
  if (!rig) return null;
  // Rigid and Articulated send the rig with its solver set to the one chosen (createSimulation reads it).
  if (solver === 'rigid') return cached(rigidKeys, rig, () => ({ key: rig, rig: rig.solver === 'articulated' ? { ...rig, solver: 'rigid' } : rig }));
  if (solver === 'articulated') return cached(articulatedKeys, rig, () => ({ key: {}, rig: { ...rig, solver: 'articulated' } }));
  return cached(particleKeys, rig, () => ({ key: {}, rig, particles: { scene: null, name: rig.name } }));
}

