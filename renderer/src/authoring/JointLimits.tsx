/**
 * The joints in the viewport, in joint frame A (bodyA's pose ∘ frameA) at the rest pose or where the
 * preview has bodyA on the frame shown: the frame's axes (X red = hinge / twist axis, Y green = angle
 * reference, Z blue) and the limits — hinge arc, twist fan, swing cone (limitGeometry.ts). Every joint is
 * drawn faintly; the selected joint larger and brighter, with handles on the hinge / twist arc ends that
 * drag the limit directly (viewport/useDragGesture.ts: one drag = one undo step, Escape cancels). Whether they are drawn is the one Joints view toggle
 * (toolbar Overlays group, View › Show Joints and Limits: the preview store's overlays.joints), as the
 * bodies are the Bodies toggle — editing and previewing show the same joints.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useFrame, type ThreeEvent } from '@react-three/fiber';
import { BufferAttribute, BufferGeometry, Color, DoubleSide, Float32BufferAttribute, Matrix4, Plane, Quaternion, Vector3, type Group } from 'three';
import { setJointLimits } from '../../../shared/authoring';
import { composeTransforms, type Transform } from '../../../shared/math/transform';
import type { Quat } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import type { RigDocument, RigJoint, RigShape } from '../../../shared/rig';
import { useEditor } from '../state/store';
import { useDragGesture } from '../viewport/useDragGesture';
import { angleAboutX, coneGeometry, rimAngles, sectorGeometry, sectorPoint, type FanGeometry } from './limitGeometry';
import { rigEdit } from './rigEdit';
import { previewBodyPose } from './previewPose';
import { usePreview } from './preview';
import { OVERLAY_COLORS } from '../viewport/overlays/frameData';

const HINGE_COLOR = '#8bc34a';
const TWIST_COLOR = '#e5b84b';
const SWING_COLOR = '#5c9cf5';

/** What is drawn for each joint limit, read back from the geometry (the e2e test hook reports it). */
export interface DrawnLimit { joint: string; kind: 'hinge' | 'twist' | 'swing' | SlideKind; min: number; max: number; radius: number; selected: boolean }
/** Slide ranges (m) along frame X (cylindrical; a screw's travel, pitch × its angle limit), Y and Z (planar). */
type SlideKind = 'slide' | 'slideY' | 'slideZ';
const SLIDE_COLOR = '#e07bd8';
const SLIDE_AXIS: Record<SlideKind, 0 | 1 | 2> = { slide: 0, slideY: 1, slideZ: 2 };
const LIMIT_KINDS = ['hinge', 'twist', 'swing', 'slide', 'slideY', 'slideZ'] as const;
export const drawnLimits = new Map<string, DrawnLimit>();
/** The group every joint is drawn in (the test hook reads whether it is shown). */
export const jointsGroup: { current: Group | null } = { current: null };

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
  const slides: { kind: SlideKind; min: number; max: number }[] = [];
  if (joint.type === 'cylindrical' && joint.slideLimit) slides.push({ kind: 'slide', min: joint.slideLimit[0], max: joint.slideLimit[1] });
  if (joint.type === 'screw' && joint.limit) {
    const a = joint.pitch * joint.limit[0], b = joint.pitch * joint.limit[1];
    slides.push({ kind: 'slide', min: Math.min(a, b), max: Math.max(a, b) });
  }
  if (joint.type === 'planar' && joint.slideLimitY) slides.push({ kind: 'slideY', min: joint.slideLimitY[0], max: joint.slideLimitY[1] });
  if (joint.type === 'planar' && joint.slideLimitZ) slides.push({ kind: 'slideZ', min: joint.slideLimitZ[0], max: joint.slideLimitZ[1] });
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
  const gesture = useDragGesture<true>({ label: () => label });
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
  return (
    <mesh position={p} {...gesture.pointer({ start: () => true, move: onMove })} userData={{ limitHandle: `${joint}:${field}:${end}` }} renderOrder={5}>
      <sphereGeometry args={[Math.max(radius * 0.07, 0.008), 16, 12]} />
      <meshBasicMaterial color={color} depthTest={false} transparent />
    </mesh>
  );
}

/** Four decimals (0.006°), kept inside (−π, π] where the format wants limits. */
const round = (v: number) => Math.min(Math.max(Number(v.toFixed(4)), -3.1415), 3.1415);
