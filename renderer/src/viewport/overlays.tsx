/**
 * The viewport's overlay slots. Each later feature (bodies, joints and limits, gait paths, contacts,
 * steering target) adds its overlay component here; each reads the store and mutates its own three
 * objects in useFrame.
 */
import type { ComponentType } from 'react';
import { SkeletonLayer } from './SkeletonLayer';
import { AuthoringLayer } from '../authoring/RigLayer';
import { PreviewLayer } from './overlays/PreviewLayer';
import { ParticleLayer } from './overlays/ParticleLayer';

export const viewportOverlays: { id: string; component: ComponentType }[] = [
  { id: 'skeleton', component: SkeletonLayer },
  { id: 'rig', component: AuthoringLayer },
  { id: 'preview', component: PreviewLayer },
  { id: 'particles', component: ParticleLayer },
];

export function Overlays() {
  return <>{viewportOverlays.map(({ id, component: C }) => <C key={id} />)}</>;
}
