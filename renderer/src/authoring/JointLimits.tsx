/**
 * The joints in the viewport, in joint frame A (bodyA's pose ∘ frameA) at the rest pose or where the
 * preview has bodyA on the frame shown: the frame's axes (X red = hinge / twist axis, Y green = angle
 * reference, Z blue) and the limits — hinge arc, twist fan, swing cone (limitGeometry.ts). Every joint is
 * drawn faintly; the selected joint larger and brighter, with handles on the hinge / twist arc ends and on
 * the slide range ends (prismatic, cylindrical, screw travel, planar Y and Z; slideLimitDrag.ts) that drag
 * the limit directly (viewport/useDragGesture.ts: one drag = one undo step, Escape cancels). A slide end
 * moves along its axis to the point nearest the pointer's ray (viewport/axisDrag.ts) and stops at the other
 * end, saying why as the inspector does. While the pointer is on a handle (or drags one) the joint's
 * move / rotate gizmo, whose X arrow lies along the slide axis, steps back (disabled, drawn faded) so the
 * press is the handle's. Whether they are drawn is the one Joints view toggle
 * (toolbar Overlays group, View › Show Joints and Limits: the preview store's overlays.joints), as the
 * bodies are the Bodies toggle — editing and previewing show the same joints.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useFrame, useThree, type ThreeEvent } from '@react-three/fiber';
import { BufferAttribute, BufferGeometry, Color, DoubleSide, Float32BufferAttribute, Matrix4, Plane, Quaternion, Vector3, type Group, type Mesh, type Object3D } from 'three';
import { setJointLimits } from '../../../shared/authoring';
import { composeTransforms, type Transform } from '../../../shared/math/transform';
import type { Quat } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import type { RigDocument, RigJoint, RigShape } from '../../../shared/rig';
import { useEditor } from '../state/store';
import { useDragGesture } from '../viewport/useDragGesture';
import { angleAboutX, coneGeometry, rimAngles, sectorGeometry, sectorPoint, type FanGeometry } from './limitGeometry';
import { currentRig, rigEdit } from './rigEdit';
import { SLIDE_AXIS, slideEndEdit, slideRanges, type SlideKind } from './slideLimitDrag';
import { axisDragOffset, startAxisDrag, type AxisDragStart } from '../viewport/axisDrag';
import { gizmoRegistry } from './viewportPicking';
import { notify } from '../state/editor';
import { fieldMessage } from '../../../shared/editor/fieldMessages';
import { previewBodyPose } from './previewPose';
import { usePreview } from './preview';
import { OVERLAY_COLORS } from '../viewport/overlays/frameData';

const HINGE_COLOR = '#8bc34a';
const TWIST_COLOR = '#e5b84b';
const SWING_COLOR = '#5c9cf5';

/** What is drawn for each joint limit, read back from the geometry (the e2e test hook reports it). */
export interface DrawnLimit { joint: string; kind: 'hinge' | 'twist' | 'swing' | SlideKind; min: number; max: number; radius: number; selected: boolean }
/** Slide ranges (m) along frame X (prismatic, cylindrical; a screw's travel, pitch × its angle limit), Y and Z (planar). */
const SLIDE_COLOR = '#e07bd8';
const LIMIT_KINDS = ['hinge', 'twist', 'swing', 'slide', 'slideY', 'slideZ'] as const;
export const drawnLimits = new Map<string, DrawnLimit>();
/** The group every joint is drawn in (the test hook reads whether it is shown). */
export const jointsGroup: { current: Group | null } = { current: null };
/** The selected joint's slide-end handles by `joint:kind:end` (end 0 = min, 1 = max), for the test hook. */
export const slideHandles = new Map<string, Object3D>();

/** Handles under the pointer or being dragged: while any is, the joint gizmo is disabled (it listens on the
 *  same canvas and would take the press on its arrow, which lies along a slide axis). */
const holding = new Set<string>();
function holdJointGizmo(key: string, on: boolean): void {
  if (on) holding.add(key); else holding.delete(key);
  const tc = gizmoRegistry.joint;
  if (!tc) return;
  tc.enabled = holding.size === 0;
  if (!tc.enabled) tc.axis = null;
}
/** Hover and drag hold the gizmo back: a drag's pointer may leave the handle before the release. */
function useGizmoHold(key: string) {
  const hovered = useRef(false), dragging = useRef(false);
  const sync = () => holdJointGizmo(key, hovered.current || dragging.current);
  useLayoutEffect(() => () => holdJointGizmo(key, false), [key]);
  return {
    over: () => { hovered.current = true; sync(); },
    out: () => { hovered.current = false; sync(); },
    drag: (on: boolean) => { dragging.current = on; sync(); },
  };
}

function shapeExtent(s: RigShape): number {
  switch (s.type) {
    case 'sphere': return s.radius;
    case 'capsule': case 'cylinder': return s.halfHeight + s.radius;
    case 'box': return Math.max(...s.halfExtents);
    case 'ellipsoid': return Math.max(...s.radii);
  }
}

export function JointLimits({ rig, rest }: { rig: RigDocument; rest: Map<string, Transform> }) {
  const selected = useEditor((s) => (s.session.selection?.kind === 'joint' ? s.session.selection.name : null));
  const show = usePreview((s) => s.overlays.joints);
  useLayoutEffect(() => () => drawnLimits.clear(), []);
  return (
    <group name="limits" visible={show} ref={(g) => { jointsGroup.current = g; }}>
      {rig.joints.map((j) => {
        const child = rig.bodies.find((b) => b.name === j.bodyB);
        const size = child ? Math.max(...child.shapes.map(shapeExtent)) : 0.1;
        const isSel = j.name === selected;
        const radius = Math.min(Math.max(size * (isSel ? 0.9 : 0.55), 0.04), isSel ? 0.3 : 0.16);
        return <JointLimit key={j.name} joint={j} restA={rest.get(j.bodyA)} radius={radius} selected={isSel} />;
      })}
    </group>
  );
}

function JointLimit({ joint, restA, radius, selected }: { joint: RigJoint; restA: Transform | undefined; radius: number; selected: boolean }) {
  const ref = useRef<Group>(null);
  const frameA: Transform = { position: joint.frameA.position as Vec3, rotation: joint.frameA.rotation as Quat };
  useFrame(() => {
    const g = ref.current;
    const a = previewBodyPose(joint.bodyA) ?? restA;
    if (!g || !a) return;
    const w = composeTransforms(a, frameA);
    g.position.set(...w.position);
    g.quaternion.set(...w.rotation).normalize();
  });
  const parts: { kind: DrawnLimit['kind']; geo: FanGeometry; color: string; min: number; max: number }[] = [];
  const angled = joint.type === 'hinge' || joint.type === 'screw' || joint.type === 'cylindrical' || joint.type === 'planar';
  if (angled && joint.limit) parts.push({ kind: 'hinge', geo: sectorGeometry(joint.limit[0], joint.limit[1], radius), color: HINGE_COLOR, min: joint.limit[0], max: joint.limit[1] });
  const slides = slideRanges(joint);
  if (joint.type === 'ball' && joint.twistLimit) parts.push({ kind: 'twist', geo: sectorGeometry(joint.twistLimit[0], joint.twistLimit[1], radius * 0.6), color: TWIST_COLOR, min: joint.twistLimit[0], max: joint.twistLimit[1] });
  if (joint.type === 'ball' && joint.swingLimit) parts.push({ kind: 'swing', geo: coneGeometry(joint.swingLimit[0], joint.swingLimit[1], radius), color: SWING_COLOR, min: -joint.swingLimit[0], max: joint.swingLimit[1] });

  useLayoutEffect(() => {
    for (const p of parts) {
      const drawn = p.kind === 'swing' ? { min: p.min, max: p.max } : rimAngles(p.geo.rim);
      drawnLimits.set(`${joint.name}:${p.kind}`, { joint: joint.name, kind: p.kind, min: drawn.min, max: drawn.max, radius, selected });
    }
    for (const sl of slides) drawnLimits.set(`${joint.name}:${sl.kind}`, { joint: joint.name, kind: sl.kind, min: sl.min, max: sl.max, radius, selected });
    return () => { for (const k of LIMIT_KINDS) drawnLimits.delete(`${joint.name}:${k}`); };
  });

  return (
    <group ref={ref} name={`limits:${joint.name}`}>
      {parts.map((p) => <Fan key={p.kind} geo={p.geo} color={p.color} selected={selected} />)}
      {slides.map((sl) => <SlideRange key={sl.kind} axis={SLIDE_AXIS[sl.kind]} min={sl.min} max={sl.max} tick={radius * 0.15} selected={selected} />)}
      {selected && slides.flatMap((sl) => ([0, 1] as const).map((end) => (
        <SlideHandle key={`${sl.kind}:${end}`} joint={joint} kind={sl.kind} end={end} value={end === 0 ? sl.min : sl.max} radius={radius} />
      )))}
      {joint.type === 'screw' && <Helix pitch={joint.pitch} lo={joint.limit?.[0] ?? -2 * Math.PI} hi={joint.limit?.[1] ?? 2 * Math.PI} radius={radius * 0.35} selected={selected} />}
      {selected && angled && joint.limit && (
        <>
          <LimitHandle joint={joint.name} field="limit" end={0} range={joint.limit} radius={radius} color={HINGE_COLOR} />
          <LimitHandle joint={joint.name} field="limit" end={1} range={joint.limit} radius={radius} color={HINGE_COLOR} />
        </>
      )}
      {selected && joint.type === 'ball' && joint.twistLimit && (
        <>
          <LimitHandle joint={joint.name} field="twistLimit" end={0} range={joint.twistLimit} radius={radius * 0.6} color={TWIST_COLOR} />
          <LimitHandle joint={joint.name} field="twistLimit" end={1} range={joint.twistLimit} radius={radius * 0.6} color={TWIST_COLOR} />
        </>
      )}
      <JointAxes length={radius * 1.2} selected={selected} />
    </group>
  );
}

/** A slide range: the segment [min, max] along the frame axis, with a tick across it at each end. */
function SlideRange({ axis, min, max, tick, selected }: { axis: 0 | 1 | 2; min: number; max: number; tick: number; selected: boolean }) {
  const geometry = useMemo(() => {
    const at = (t: number, across: number): number[] => {
      const p = [0, 0, 0];
      p[axis] = t;
      p[axis === 0 ? 1 : 0] = across;
      return p;
    };
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute([...at(min, 0), ...at(max, 0), ...at(min, -tick), ...at(min, tick), ...at(max, -tick), ...at(max, tick)], 3));
    return g;
  }, [axis, min, max, tick]);
  useLayoutEffect(() => () => geometry.dispose(), [geometry]);
  return (
    <lineSegments geometry={geometry} renderOrder={4} raycast={() => undefined}>
      <lineBasicMaterial color={SLIDE_COLOR} transparent opacity={selected ? 1 : 0.6} depthTest={!selected} />
    </lineSegments>
  );
}

/** A screw's thread: the helix its anchor follows, x = pitch·θ, over the angle range (two turns when free). */
function Helix({ pitch, lo, hi, radius, selected }: { pitch: number; lo: number; hi: number; radius: number; selected: boolean }) {
  const geometry = useMemo(() => {
    const n = 96, p: number[] = [];
    for (let i = 0; i <= n; i++) {
      const t = lo + ((hi - lo) * i) / n;
      p.push(pitch * t, radius * Math.cos(t), radius * Math.sin(t));
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new Float32BufferAttribute(p, 3));
    return g;
  }, [pitch, lo, hi, radius]);
  useLayoutEffect(() => () => geometry.dispose(), [geometry]);
  return (
    <line>
      <primitive object={geometry} attach="geometry" />
      <lineBasicMaterial color={SLIDE_COLOR} transparent opacity={selected ? 0.9 : 0.45} depthTest={!selected} />
    </line>
  );
}

const AXIS_COLORS = [OVERLAY_COLORS.axisX, OVERLAY_COLORS.axisY, OVERLAY_COLORS.axisZ].map((c) => new Color(c).toArray());

/** The joint frame's X, Y, Z axes (red, green, blue), over the bodies (joints sit inside them). */
function JointAxes({ length, selected }: { length: number; selected: boolean }) {
  const geometry = useMemo(() => {
    const g = new BufferGeometry();
    const p: number[] = [], c: number[] = [];
    for (let k = 0; k < 3; k++) {
      const end = [0, 0, 0];
      end[k] = length;
      p.push(0, 0, 0, ...end);
      c.push(...AXIS_COLORS[k]!, ...AXIS_COLORS[k]!);
    }
    g.setAttribute('position', new Float32BufferAttribute(p, 3));
    g.setAttribute('color', new Float32BufferAttribute(c, 3));
    return g;
  }, [length]);
  useLayoutEffect(() => () => geometry.dispose(), [geometry]);
  return (
    <lineSegments geometry={geometry} renderOrder={4} raycast={() => undefined}>
      <lineBasicMaterial vertexColors transparent opacity={selected ? 1 : 0.6} depthTest={false} />
    </lineSegments>
  );
}

function Fan({ geo, color, selected }: { geo: FanGeometry; color: string; selected: boolean }) {
  const { fill, rim } = useMemo(() => {
    const fill = new BufferGeometry();
    fill.setAttribute('position', new BufferAttribute(geo.triangles, 3));
    const rim = new BufferGeometry();
    rim.setAttribute('position', new BufferAttribute(geo.rim, 3));
    return { fill, rim };
  }, [geo]);
  useLayoutEffect(() => () => { fill.dispose(); rim.dispose(); }, [fill, rim]);
  return (
    <>
      <mesh geometry={fill} renderOrder={3} raycast={() => undefined}>
        <meshBasicMaterial color={color} transparent opacity={selected ? 0.38 : 0.2} side={DoubleSide} depthWrite={false} depthTest={!selected} />
      </mesh>
      <line>
        <primitive object={rim} attach="geometry" />
        <lineBasicMaterial color={color} transparent opacity={selected ? 1 : 0.7} depthTest={!selected} />
      </line>
    </>
  );
}

const plane = new Plane();
const hit = new Vector3();
const inv = new Matrix4();
const normal = new Vector3();
const q = new Quaternion();

/** A sphere on one end of an arc; dragging it around the arc's axis sets that end of the limit. */
function LimitHandle({ joint, field, end, range, radius, color }: { joint: string; field: 'limit' | 'twistLimit'; end: 0 | 1; range: readonly [number, number]; radius: number; color: string }) {
  const label = `${field === 'limit' ? 'Hinge' : 'Twist'} limit (${joint})`;
  const hold = useGizmoHold(`${joint}:${field}:${end}`);
  const gesture = useDragGesture<true>({ label: () => label, onEnd: () => hold.drag(false), onCancel: () => hold.drag(false) });
  const p = sectorPoint(range[end], radius);
  const onMove = (e: ThreeEvent<PointerEvent>) => {
    const frame = e.object.parent!;
    frame.updateMatrixWorld();
    // The arc's plane: through the anchor, normal to the frame's X axis (world).
    normal.set(1, 0, 0).applyQuaternion(frame.getWorldQuaternion(q));
    plane.setFromNormalAndCoplanarPoint(normal, frame.getWorldPosition(hit));
    if (!e.ray.intersectPlane(plane, hit)) return;
    const local = hit.applyMatrix4(inv.copy(frame.matrixWorld).invert());
    let a = angleAboutX([local.x, local.y, local.z]);
    // Keep min ≤ max and inside (−π, π].
    a = end === 0 ? Math.min(a, range[1]) : Math.max(a, range[0]);
    const next: [number, number] = end === 0 ? [round(a), range[1]] : [range[0], round(a)];
    rigEdit(label, (r) => setJointLimits(r, joint, { [field]: next }));
  };
  const handlers = gesture.pointer({ start: () => { hold.drag(true); return true; }, move: onMove });
  return (
    <mesh position={p} {...handlers} {...holdOnHover(handlers, hold)} userData={{ limitHandle: `${joint}:${field}:${end}` }} renderOrder={5}>
      <sphereGeometry args={[Math.max(radius * 0.07, 0.008), 16, 12]} />
      <meshBasicMaterial color={color} depthTest={false} transparent />
    </mesh>
  );
}

/** The drag gesture's hover handlers (the cursor), also holding the joint gizmo back while hovered. */
const holdOnHover = (h: { onPointerOver: () => void; onPointerOut: () => void }, hold: ReturnType<typeof useGizmoHold>) => ({
  onPointerOver: () => { h.onPointerOver(); hold.over(); },
  onPointerOut: () => { h.onPointerOut(); hold.out(); },
});

/** A slide drag: the axis and offsets at the press, the joint as it was (the other end stays put). */
interface SlideDrag { axis: AxisDragStart; s0: number; v0: number; perMetre: number; joint: RigJoint; label: string; warned: boolean }

const p0 = new Vector3();
const p1 = new Vector3();

/**
 * A sphere on one end of a slide range; dragging it along the range's axis sets that end (slideLimitDrag.ts:
 * which field, screw travel → angle, never past the other end). The pointer's ray is projected onto the axis
 * (axisDrag.ts), relative to where the press met it, so the end does not jump to the cursor at the press.
 */
function SlideHandle({ joint, kind, end, value, radius }: { joint: RigJoint; kind: SlideKind; end: 0 | 1; value: number; radius: number }) {
  const camera = useThree((s) => s.camera);
  const ref = useRef<Mesh>(null);
  const key = `${joint.name}:${kind}:${end}`;
  const hold = useGizmoHold(`slide:${key}`);
  useLayoutEffect(() => {
    const m = ref.current;
    if (!m) return;
    slideHandles.set(key, m);
    return () => { if (slideHandles.get(key) === m) slideHandles.delete(key); };
  }, [key]);
  const gesture = useDragGesture<SlideDrag>({ label: (d) => d.label, onEnd: () => hold.drag(false), onCancel: () => hold.drag(false) });
  const axis = SLIDE_AXIS[kind];
  const start = (e: ThreeEvent<PointerEvent>): SlideDrag | null => {
    const m = ref.current, frame = m?.parent;
    const first = slideEndEdit(joint, kind, end, value);
    if (!m || !frame || !first) return null;
    frame.updateMatrixWorld();
    // The axis in world: the frame's origin and unit point on it (their distance is the world length of a metre).
    frame.localToWorld(p0.set(0, 0, 0));
    frame.localToWorld(p1.set(0, 0, 0).setComponent(axis, 1));
    const dir = p1.sub(p0);
    const perMetre = dir.length();
    dir.divideScalar(perMetre);
    const at = m.getWorldPosition(new Vector3());
    const eye = camera.getWorldPosition(new Vector3()), forward = camera.getWorldDirection(new Vector3());
    const s = startAxisDrag([at.x, at.y, at.z], [dir.x, dir.y, dir.z], [eye.x, eye.y, eye.z], [forward.x, forward.y, forward.z]);
    const o = e.ray.origin, d = e.ray.direction;
    const s0 = axisDragOffset(s, [o.x, o.y, o.z], [d.x, d.y, d.z]);
    if (s0 === null) return null;
    hold.drag(true);
    return { axis: s, s0, v0: value, perMetre, joint, label: `${first.label} (${joint.name})`, warned: false };
  };
  const move = (e: ThreeEvent<PointerEvent>, d: SlideDrag) => {
    const o = e.ray.origin, dir = e.ray.direction;
    const s = axisDragOffset(d.axis, [o.x, o.y, o.z], [dir.x, dir.y, dir.z]);
    if (s === null) return;
    const edit = slideEndEdit(d.joint, kind, end, d.v0 + (s - d.s0) / d.perMetre);
    if (!edit) return;
    if (edit.refused && !d.warned) {
      // Said once a drag, in the inspector's words: the edit the pointer asked for, refused by setJointLimits.
      d.warned = true;
      const rig = currentRig();
      const r = rig ? setJointLimits(rig, joint.name, edit.refused) : null;
      if (r && !r.ok) notify('error', `${edit.field}: ${fieldMessage(r.message, edit.unit)}`);
    }
    rigEdit(d.label, (r) => setJointLimits(r, joint.name, edit.patch));
  };
  const handlers = gesture.pointer({ start, move });
  const at: [number, number, number] = [0, 0, 0];
  at[axis] = value;
  return (
    <mesh ref={ref} position={at} {...handlers} {...holdOnHover(handlers, hold)} userData={{ limitHandle: `${key}` }} renderOrder={5}>
      <sphereGeometry args={[Math.max(radius * 0.07, 0.008), 16, 12]} />
      <meshBasicMaterial color={SLIDE_COLOR} depthTest={false} transparent />
    </mesh>
  );
}

/** Four decimals (0.006°), kept inside (−π, π] where the format wants limits. */
const round = (v: number) => Math.min(Math.max(Number(v.toFixed(4)), -3.1415), 3.1415);
