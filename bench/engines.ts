/** The engines by name (MuJoCo runs the MJCF that shared/export writes), each loaded once (their WASM or modules) on first use. */
import type { BenchEngine, EngineName } from './engine';
import { marionetteEngine } from './marionetteEngine';
import { World } from '../shared/physics/world';
import { loadJolt } from './joltEngine';
import { loadMujocoEngine } from './mujocoEngine';
import { loadRapier } from './rapierEngine';
import { articulatedEngine } from './articulatedEngine';

export async function loadEngine(name: EngineName): Promise<BenchEngine> {
  switch (name) {
    case 'marionette':
      return marionetteEngine((settings) => new World(settings));
    case 'articulated':
      return articulatedEngine;
    case 'rapier':
      return loadRapier();
    case 'jolt':
      return loadJolt();
    case 'mujoco':
      return loadMujocoEngine();
  }
}
