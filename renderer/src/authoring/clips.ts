/**
 * Animation clip names of the loaded creature (targets for motors with source "animation"): the clips the
 * loader read from the file as data (LoadedCreature.clips). A creature without clips offers none (the rig
 * can still name one the game provides).
 */
import type { LoadedCreature } from '../creature/types';

export function creatureClipNames(creature: LoadedCreature | null): string[] {
  return creature ? creature.clips.map((c) => c.name) : [];
}
