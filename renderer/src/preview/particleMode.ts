/**
 * Which solver the preview runs (session state: neither saved nor undone), and the particle scene shown
 * when an example scene is open instead of a creature.
 *
 *  - Rigid | Particle: the same creature under either solver (toolbar switch, View menu). Opening a rig
 *    follows its `solver` field (shared/rig): a rig meant for particles opens in particle mode.
 *  - An example scene ("marionette-particles", assets/examples/) closes the document and shows the scene
 *    alone under the particle solver; opening a creature or project afterwards clears it.
 * The preview client asks previewSource() what to send to the worker; inputs on the timeline are kept
 * per solver (a limp or grab input means nothing to particles), so switching back restores them.
 */
import { create } from 'zustand';
import { loadParticleScene, type ParticleScene } from '../../../shared/physics/particles';
import type { RigDocument } from '../../../shared/rig';
import { useEditor } from '../state/store';
import type { PreviewInput } from './engine';
import type { ParticleRequest } from './particleEngine';
import { previewClient } from './client';
import { usePreview } from './previewStore';

export type Solver = 'rigid' | 'particle';

export interface ParticleSceneFile { name: string; scene: ParticleScene }

interface SolverState {
  solver: Solver;
  /** An open particle scene (an example), shown instead of a document; null when a creature is open. */
  scene: ParticleSceneFile | null;
}

export const useSolver = create<SolverState>()(() => ({ solver: 'rigid', scene: null }));

/** Timeline inputs of the solver not shown now. */
const stashed: Record<Solver, PreviewInput[]> = { rigid: [], particle: [] };

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
  if (solver === 'rigid') return cached(rigidKeys, rig, () => ({ key: rig, rig }));
  return cached(particleKeys, rig, () => ({ key: {}, rig, particles: { scene: null, name: rig.name } }));
}

/** Switch the preview's solver (the toolbar's Rigid | Particle, the View menu). */
export function setSolver(solver: Solver): void {
  const cur = useSolver.getState();
  if (cur.solver === solver || cur.scene) return;
  const client = previewClient();
  stashed[cur.solver] = usePreview.getState().inputs;
  client.setInputs(stashed[solver]);
  useSolver.setState({ solver });
  client.sendRig();
}

/**
 * Show a particle scene (an example file's text) under the particle solver. `close` closes the current
 * document first (asking about unsaved changes; false = the user cancelled). A bad scene is refused with
 * the particle loader's message (file, field, reason) and nothing changes.
 */
export async function openParticleScene(text: string, fileName: string, close: () => Promise<boolean>): Promise<ParticleSceneFile | null> {
  const scene = loadParticleScene(text, fileName);
  if (!(await close())) return null;
  const file: ParticleSceneFile = { name: fileName, scene };
  stashed.rigid = []; stashed.particle = [];
  useSolver.setState({ solver: 'particle', scene: file });
  const client = previewClient();
  client.setInputs([]);
  client.seek(0);
  // The timeline covers the scene's own duration (at most 20 s) in its steps.
  client.setDuration(Math.round(Math.min(scene.settings.duration, 20) / scene.settings.dt));
  client.sendRig();
  client.setPlaying(true);
  return file;
}
