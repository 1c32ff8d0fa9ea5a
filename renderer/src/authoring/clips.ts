/**
 * Animation clip names of the loaded creature (targets for motors with source "animation"). The shell's
 * loader keeps three's parsed clips on the display root when it has them; a creature without clips
 * offers none (the rig can still name one the game provides).
 */
import type { LoadedCreature } from '../creature/types';

export function creatureClipNames(creature: LoadedCreature | null): string[] {
  if (!creature) return [];
  const names = new Set<string>();
  creature.display.root.traverse((o) => { for (const a of o.animations) if (a.name) names.add(a.name); });
  return [...names];
}
