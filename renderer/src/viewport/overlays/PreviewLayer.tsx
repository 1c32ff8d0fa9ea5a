/**
 * The preview in the viewport: advances the playhead at display rate and poses the skinned creature from
 * the recorded frame under it (bone world = body world · offset⁻¹ through the runtime's read-out, written
 * into the three.js bones by mutation — no React render per frame). Mounts the preview overlays; the bodies
 * and the joints (axes, limits) are not among them: the rig layer (authoring/RigLayer.tsx) draws them at
 * the frame shown, selectable, under the Bodies and Joints toggles.
 */
import { useEffect, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { Matrix4, Quaternion, Vector3, type Object3D } from 'three';
import { useEditor } from '../../state/store';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { shownPose } from '../../preview/shownPose';
import { traceShown } from '../../preview/editTrace';
import { TorqueOverlay } from './TorqueOverlay';
import { ContactsOverlay } from './ContactsOverlay';
import { PathOverlay } from './PathOverlay';
import { TargetMarker } from './TargetMarker';
import { CameraFollow } from './CameraFollow';

interface Rest { obj: Object3D; position: Vector3; quaternion: Quaternion }

const m = new Matrix4(), inv = new Matrix4(), pv = new Vector3(), qv = new Quaternion(), sv = new Vector3();

export function PreviewLayer() {
  const creature = useEditor((s) => s.creature);
  const overlays = usePreview((s) => s.overlays);
  const rest = useRef<Rest[]>([]);
  const applied = useRef({ version: -1, index: -2, creature: -1 });
  const buf = useRef(new Float64Array(0));

  useEffect(() => {
    // Remember the rest pose so the creature goes back to it when there is nothing to show.
    rest.current = creature ? creature.display.boneObjects.map((obj) => ({ obj, position: obj.position.clone(), quaternion: obj.quaternion.clone() })) : [];
    applied.current = { version: -1, index: -2, creature: creature?.id ?? -1 };
    return () => { for (const r of rest.current) { r.obj.position.copy(r.position); r.obj.quaternion.copy(r.quaternion); } };
  }, [creature]);

  useFrame((_, delta) => {
    const client = previewClient();
    client.tick(delta);
    if (!creature) return;
    const index = client.frameIndex();
    const a = applied.current;
    if (a.version === client.version && a.index === index) return;
    a.version = client.version;
    a.index = index;
    const names = client.boneNames();
    if (buf.current.length !== names.length * 7) buf.current = new Float64Array(names.length * 7);
    if (index < 0 || !client.writeBoneWorld(index, buf.current)) {
      for (const r of rest.current) { r.obj.position.copy(r.position); r.obj.quaternion.copy(r.quaternion); }
      shownPose.index = -1;
      return;
    }
    const bones = creature.skeleton.bones;
    const w = buf.current;
    names.forEach((name, i) => {
      const k = bones.findIndex((b) => b.name === name);
      const obj = creature.display.boneObjects[k];
      if (!obj) return;
      // local = parentWorld⁻¹ · boneWorld (parents are posed first: boneNames is parents-first).
      const parent = obj.parent;
      if (parent) parent.updateWorldMatrix(false, false);
      m.compose(pv.set(w[i * 7]!, w[i * 7 + 1]!, w[i * 7 + 2]!), qv.set(w[i * 7 + 3]!, w[i * 7 + 4]!, w[i * 7 + 5]!, w[i * 7 + 6]!), sv.set(1, 1, 1));
      if (parent) m.premultiply(inv.copy(parent.matrixWorld).invert());
      const scale = obj.scale.clone();
      m.decompose(obj.position, obj.quaternion, sv);
      obj.scale.copy(scale);
      obj.updateMatrixWorld(true);
    });
    shownPose.index = index;
    shownPose.generation = client.layout?.generation ?? 0;
    shownPose.frame = client.frame(index)!.slice();
    traceShown(shownPose.generation, index);
  }, -1);

  if (!creature) return null;
  return (
    <group name="preview-overlays">
      {overlays.torque && <TorqueOverlay />}
      {overlays.contacts && <ContactsOverlay />}
      {overlays.path && <PathOverlay />}
      <TargetMarker />
      <CameraFollow />
    </group>
  );
}
