/**
 * window.__marionetteParticles in the test build: read-only views of the particle preview for the
 * end-to-end test (which acts through the UI: menus, the toolbar switch, clicks on the canvas).
 */
import { Vector3 } from 'three';
import { getViewportHandle } from '../viewport/viewportHandle';
import { previewClient } from './client';
import { particlePoser } from '../../../shared/preview/particlePose';
import { useSolver } from './particleMode';
import { usePreview } from './previewStore';
import { particleDrawStats } from '../viewport/overlays/particleDrawStats';

export interface ParticleTestHook {
  solver(): 'rigid' | 'articulated' | 'particle';
  /** The open particle scene's file name, or null. */
  scene(): string | null;
  /** The recording is a particle one (the worker has reset to particles). */
  active(): boolean;
  current(): boolean;
  recorded(): number;
  shownIndex(): number;
  problem(): string | null;
  boneNames(): string[];
  /** Particle positions of a recorded frame (m), or null. */
  particlesAt(frame: number): Record<string, number[]> | null;
  /** Page position (CSS px) of a bone's capsule centre at the shown frame, or null. */
  boneScreen(bone: string): { x: number; y: number } | null;
  inputs(): number;
  /** Kinds of the timeline's inputs, in order (e.g. ['limp', 'grab']: a drag is one 'grab'). */
  inputKinds(): string[];
  /** The grab spring acting at a recorded frame: grabbed point and spring target (m), or null. */
  grabAt(frame: number): { point: number[]; target: number[] } | null;
  /** What the viewport drew last: bone capsules, particle dots, the frame shown (−1: nothing), the bone
   *  drawn in the pick colour (picked in the outliner of a scene), or null. */
  drawn(): { bones: number; particles: number; frame: number; picked: string | null };
}

export function installParticleTestHook(): void {
  const poser = () => particlePoser(previewClient().layout);
  const hook: ParticleTestHook = {
    solver: () => useSolver.getState().solver,
    scene: () => useSolver.getState().scene?.name ?? null,
    active: () => poser() !== null,
    current: () => previewClient().current,
    recorded: () => previewClient().count,
    shownIndex: () => previewClient().frameIndex(),
    problem: () => usePreview.getState().problem,
    boneNames: () => [...(poser()?.info.boneNames ?? [])],
    particlesAt(f) {
      const P = poser(), fr = previewClient().frame(f);
      if (!P || !fr) return null;
      const x = P.positions(fr), out: Record<string, number[]> = {};
      P.info.particleNames.forEach((n, i) => { out[n] = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!]; });
      return out;
    },
    boneScreen(bone) {
      const P = poser(), c = previewClient(), fr = c.frame(c.frameIndex()), vp = getViewportHandle();
      const centre = P && fr ? P.boneCentre(fr, bone) : null;
      if (!centre || !vp) return null;
      const s = new Vector3(...centre).project(vp.camera);
      if (s.z > 1) return null;
      const r = vp.gl.domElement.getBoundingClientRect();
      return { x: r.left + ((s.x + 1) / 2) * r.width, y: r.top + ((1 - s.y) / 2) * r.height };
    },
    inputs: () => usePreview.getState().inputs.length,
    inputKinds: () => usePreview.getState().inputs.map((i) => i.kind),
    grabAt(f) {
      const c = previewClient(), a = c.auxOf(f), L = c.layout;
      if (!a || !L?.particles || a[L.aux.grab] !== 1) return null;
      const g = L.aux.grab;
      return { point: [a[g + 1]!, a[g + 2]!, a[g + 3]!], target: [a[g + 4]!, a[g + 5]!, a[g + 6]!] };
    },
    drawn: () => ({ ...particleDrawStats }),
  };
  (window as unknown as { __marionetteParticles: ParticleTestHook }).__marionetteParticles = hook;
}
