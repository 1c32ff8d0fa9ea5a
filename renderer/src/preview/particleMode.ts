/**
 * Which solver the preview runs (session state: neither saved nor undone), and the particle scene shown
 * when an example scene is open instead of a creature.
 *
 *  - Rigid | Articulated | Particle: the same creature under each solver (toolbar switch, View menu). Opening
 *    a rig follows its `solver` field (shared/rig): a rig meant for particles opens in particle mode.
 *    Rigid and Articulated run the same rig with the same inputs (limp, grabs, targets mean the same to
 *    both), so switching between them keeps the timeline's inputs; Particle keeps its own.
 *  - An example scene ("marionette-particles", assets/examples/) closes the document and shows the scene
 *    alone under the particle solver; opening a creature or project afterwards clears it.
 * The preview client asks previewSource() what to send to the worker; inputs on the timeline are kept
 * per solver (a limp or grab input means nothing to particles), so switching back restores them.
 */
import { loadParticleScene } from '../../../shared/physics/particles';
import { previewClient } from './client';
import { usePreview } from './previewStore';
import { stashed, useSolver, type ParticleSceneFile, type Solver } from './solverState';

export { previewSource, useSolver, type ParticleSceneFile, type PreviewSource, type Solver } from './solverState';

/** Switch the preview's solver (the toolbar's Rigid | Articulated | Particle, the View menu). */
export function setSolver(solver: Solver): void {
  const cur = useSolver.getState();
  if (cur.solver === solver || cur.scene) return;
  const client = previewClient();
  const family = (s: Solver) => (s === 'particle' ? 'particle' : 'rigid');
  if (family(cur.solver) !== family(solver)) {
    stashed[family(cur.solver)] = usePreview.getState().inputs;
    client.setInputs(stashed[family(solver)]);
  }
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
