/** The three engines by name, each loaded once (their WASM or modules) on first use. */
import type { BenchEngine, EngineName } from '../shared/bench/engine';
import { marionetteEngine, type WorldFactory } from '../shared/bench/marionetteEngine';
import type { PhysicsWorld, WorldSettings } from '../shared/physics/types';
import { loadJolt } from './joltEngine';
import { loadRapier } from './rapierEngine';

// Kept as a variable so the benchmark still runs (Rapier, Jolt) while shared/physics/world.ts is absent.
const WORLD_MODULE = '../shared/physics/world';

async function loadMarionette(): Promise<BenchEngine> {
  let mod: { World?: new (settings?: Partial<WorldSettings>) => PhysicsWorld };
  try {
    mod = (await import(/* @vite-ignore */ WORLD_MODULE)) as typeof mod;
  } catch (err) {
    throw new Error(`bench: cannot load Marionette's World from shared/physics/world.ts (${(err as Error).message})`);
  }
  const World = mod.World;
  if (typeof World !== 'function') throw new Error('bench: shared/physics/world.ts does not export a World class');
  const factory: WorldFactory = (settings) => new World(settings);
  return marionetteEngine(factory);
}

export async function loadEngine(name: EngineName): Promise<BenchEngine> {
  switch (name) {
    case 'marionette':
      return loadMarionette();
    case 'rapier':
      return loadRapier();
    case 'jolt':
      return loadJolt();
  }
}
