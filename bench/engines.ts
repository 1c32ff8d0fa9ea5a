/** The three engines by name, each loaded once (their WASM or modules) on first use. */
import type { BenchEngine, EngineName } from '../shared/bench/engine';
import { marionetteEngine } from '../shared/bench/marionetteEngine';
import { World } from '../shared/physics/world';
import { loadJolt } from './joltEngine';
import { loadRapier } from './rapierEngine';

export async function loadEngine(name: EngineName): Promise<BenchEngine> {
  switch (name) {
    case 'marionette':
      return marionetteEngine((settings) => new World(settings));
    case 'rapier':
      return loadRapier();
    case 'jolt':
      return loadJolt();
  }
}
