/**
 * The steering target in force at the shown frame, as a marker on the floor. Drag it to move the target:
 * the key in force at the playhead if there is one (a timeline input), otherwise the rig's own target (a
 * document edit, one undo step; Escape during the drag leaves it where it was). "Key target" on the
 * timeline stores it at the playhead. Under Live simulate the drag steers the live creature (live.ts).
 */
import { useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { Plane, Vector3, type Group } from 'three';
import { useEditor } from '../../state/store';
import { editRig } from '../../state/editor';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { liveInput, liveOn } from '../../preview/live';
import { setSteeringTarget } from '../../../../shared/authoring';
import { OVERLAY_COLORS, shown } from './frameData';
import { useDragGesture } from '../useDragGesture';

const FLOOR = new Plane(new Vector3(0, 1, 0), 0);

/** Where the marker is (world, m), for the timeline's "Key target" and the test hook. */
export const targetMarker = { position: null as [number, number, number] | null };

export function TargetMarker() {
  const group = useRef<Group>(null);
  const controllerName = useEditor((s) => s.document?.rig.controllers.find((c) => c.type === 'cyclicPath')?.name ?? null);
  // The marker follows the pointer on the floor while dragged and moves the target on release (one undo
  // step when that edits the rig); Escape leaves the target where it was (useDragGesture).
  const gesture = useDragGesture<Vector3>({
    label: () => 'Move steering target',
    onEnd: (p) => moveTarget([Math.round(p.x * 1000) / 1000, 0, Math.round(p.z * 1000) / 1000]),
  });

  useFrame(() => {
    const g = group.current;
    if (!g) return;
    const client = previewClient();
    const s = shown(client);
    const L = client.layout;
    const dragged = gesture.active();
    if (dragged) { g.position.copy(dragged); g.visible = true; return; }
    if (!s || !L || s.aux[L.aux.steering + 3] !== 1) { g.visible = false; targetMarker.position = null; return; }
    g.visible = true;
    g.position.set(s.aux[0]!, 0.002, s.aux[2]!);
    targetMarker.position = [s.aux[0]!, s.aux[1]!, s.aux[2]!];
  });

  const handlers = gesture.pointer({
    start: () => (controllerName ? group.current!.position.clone() : null),
    move: (e, p) => {
      const hit = e.ray.intersectPlane(FLOOR, new Vector3());
      if (hit) p.set(hit.x, 0.002, hit.z);
    },
  });

  if (!controllerName) return null;
  return (
    <group ref={group} {...handlers}>
      <mesh rotation-x={-Math.PI / 2} renderOrder={6}>
        <ringGeometry args={[0.14, 0.19, 40]} />
        <meshBasicMaterial color={OVERLAY_COLORS.target} transparent opacity={0.9} depthWrite={false} />
      </mesh>
      <mesh rotation-x={-Math.PI / 2} renderOrder={6}>
        <circleGeometry args={[0.05, 24]} />
        <meshBasicMaterial color={OVERLAY_COLORS.target} transparent opacity={0.9} depthWrite={false} />
      </mesh>
      <mesh position-y={0.2} renderOrder={6}>
        <cylinderGeometry args={[0.006, 0.006, 0.4, 8]} />
        <meshBasicMaterial color={OVERLAY_COLORS.target} />
      </mesh>
      {/* A generous invisible disc so the marker is easy to grab. */}
      <mesh rotation-x={-Math.PI / 2}>
        <circleGeometry args={[0.25, 16]} />
        <meshBasicMaterial transparent opacity={0} depthWrite={false} />
      </mesh>
    </group>
  );
}

/**
 * Move the target in force at the playhead: its key if one is in force, else the rig's own target. Under
 * Live simulate it steers the live creature at once instead (not recorded, the rig's target unchanged).
 */
export function moveTarget(target: [number, number, number]): void {
  if (liveOn()) { liveInput({ kind: 'target', frame: 0, target }); return; }
  const client = previewClient();
  const f = Math.max(0, client.frameIndex());
  const inputs = usePreview.getState().inputs;
  let keyAt = -1;
  inputs.forEach((inp, i) => { if (inp.kind === 'target' && inp.frame <= f) keyAt = i; });
  if (keyAt >= 0) {
    client.setInputs(inputs.map((inp, i) => (i === keyAt ? { ...inp, target } : inp)) as typeof inputs);
    return;
  }
  const name = useEditor.getState().document?.rig.controllers.find((c) => c.type === 'cyclicPath')?.name;
  if (name) editRig('Move steering target', (rig) => setSteeringTarget(rig, name, target));
}
