/**
 * The rig in the viewport: every body's shapes (translucent, the selection in orange), every joint's limits
 * (hinge arc, swing cone, twist fan, slide range; the selected joint's drawn larger, with draggable arc and
 * slide ends), and the
 * gizmos: move / rotate / scale on the selected shape (W / E / R), anchor and axes on the selected joint.
 * Bodies sit at the rest pose, or where the preview has them on the current frame (grey while the joints
 * that drive them are limp there). Whether bodies are drawn is the one "Bodies" view toggle (toolbar
 * Overlays group, View › Show Bodies: the preview store's overlays.bodies) — editing and previewing show
 * the same shapes, as in a physics asset editor, so there is no second bodies overlay to keep in step.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useFrame } from '@react-three/fiber';
import { DoubleSide, type Group, type Mesh } from 'three';
import { boneRestWorld, bodyRestWorld } from '../../../shared/rig/restPose';
import type { RigBody, RigDocument, RigShape } from '../../../shared/rig';
import type { Transform } from '../../../shared/math/transform';
import { useEditor } from '../state/store';
import { useAuthoring } from './authoringStore';
import { bodyObjects, shapeGeometry, shapeKey, shapeObjects, syncShapeObject } from './shapeObjects';
import { JointLimits } from './JointLimits';
import { ShapeGizmo, JointGizmo } from './Gizmos';
import { PickInterceptor } from './viewportPicking';
import { previewBodyPose, previewJointsLimp } from './previewPose';
import { usePreview } from './preview';
import { useSolver } from '../preview/particleMode';
import { installClipFeed } from './clipFeed';

if (typeof window !== 'undefined') installClipFeed();

const BODY_COLOR = '#7fb2e5';
const SELECTED_COLOR = '#ff8c00';
const EXTRA_COLOR = '#ffc470';
const LIMP_COLOR = '#8a8f98';

export function AuthoringLayer() {
  const rig = useEditor((s) => s.document?.rig ?? null);
  const showBodies = usePreview((s) => s.overlays.bodies);
  // Under the particle solver the preview has no rigid bodies: shapes, limits and gizmos would sit at the
  // rest pose while the particle ragdoll moves (ParticleLayer draws that), so the rig is not drawn.
  const particles = useSolver((s) => s.solver === 'particle' || s.scene !== null);
  const rest = useMemo(() => (rig ? bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones)) : null), [rig]);
  if (!rig || !rest || rig.bodies.length === 0 || particles) return <PickInterceptor />;
  return (
    <group name="authoring">
      <group name="bodies" visible={showBodies}>
        {rig.bodies.map((b) => <BodyView key={b.name} body={b} rest={rest.get(b.name)} drivenBy={drivingJoints(rig, b.name)} />)}
      </group>
      <JointLimits rig={rig} rest={rest} />
      <ShapeGizmo />
      <JointGizmo rig={rig} rest={rest} />
      <PickInterceptor />
    </group>
  );
}

/** The joints whose motors move a body: the joint to its parent; for a root body, the joints to its children. */
function drivingJoints(rig: RigDocument, body: string): string[] {
  const toParent = rig.joints.filter((j) => j.bodyB === body).map((j) => j.name);
  return toParent.length > 0 ? toParent : rig.joints.filter((j) => j.bodyA === body).map((j) => j.name);
}

function BodyView({ body, rest, drivenBy }: { body: RigBody; rest: Transform | undefined; drivenBy: string[] }) {
  const ref = useRef<Group>(null);
  // Limp is per frame (read in useFrame); React re-renders only when it flips.
  const [limp, setLimp] = useState(false);
  const limpNow = useRef(false);
  const selected = useEditor((s) => s.session.selection !== null && (s.session.selection.kind === 'body' || s.session.selection.kind === 'shape') && s.session.selection.name === body.name);
  const extra = useAuthoring((s) => s.extraBodies.includes(body.name));
  useLayoutEffect(() => {
    const g = ref.current;
    if (!g) return;
    bodyObjects.set(body.name, g);
    return () => { if (bodyObjects.get(body.name) === g) bodyObjects.delete(body.name); };
  }, [body.name]);
  useFrame(() => {
    const g = ref.current;
    if (!g || !rest) return;
    // The preview's pose of this body on the shown frame, else the rest pose.
    const p = previewBodyPose(body.name) ?? rest;
    g.position.set(p.position[0], p.position[1], p.position[2]);
    g.quaternion.set(p.rotation[0], p.rotation[1], p.rotation[2], p.rotation[3]);
    const l = previewJointsLimp(drivenBy);
    if (l !== limpNow.current) { limpNow.current = l; setLimp(l); }
  });
  const color = selected ? SELECTED_COLOR : extra ? EXTRA_COLOR : limp ? LIMP_COLOR : BODY_COLOR;
  return (
    <group ref={ref} name={`body:${body.name}`} userData={{ body: body.name }}>
      {body.shapes.map((s, i) => <ShapeView key={i} body={body.name} index={i} shape={s} color={color} selected={selected} />)}
    </group>
  );
}

function ShapeView({ body, index, shape, color, selected }: { body: string; index: number; shape: RigShape; color: string; selected: boolean }) {
  const ref = useRef<Mesh>(null);
  const sizeKey = JSON.stringify({ ...shape, position: 0, rotation: 0 });
  // Rebuilt only when the size changes, not the pose (sizeKey leaves the pose out).
  const geometry = useMemo(() => shapeGeometry(shape), [sizeKey]);
  useLayoutEffect(() => () => geometry.dispose(), [geometry]);
  useLayoutEffect(() => {
    const m = ref.current;
    if (!m) return;
    syncShapeObject(m, shape);
    const key = shapeKey(body, index);
    shapeObjects.set(key, m);
    return () => { if (shapeObjects.get(key) === m) shapeObjects.delete(key); };
  }, [body, index, shape]);
  return (
    <mesh ref={ref} geometry={geometry} userData={{ body, shape: index }} renderOrder={2}>
      <meshStandardMaterial color={color} transparent opacity={selected ? 0.5 : 0.32} roughness={0.6} metalness={0} depthWrite={false} side={DoubleSide} emissive={color} emissiveIntensity={selected ? 0.35 : 0.12} />
    </mesh>
  );
}

export type { RigDocument };
