/**
 * The cyclic hand path of each gait controller:
 *  - in the creature's frame (root position + heading, no steering skew): the sampled closed curve (grey)
 *    and the control points as handles — drag one to move it in the creature's sagittal plane (the path's
 *    plane: under the cursor, or seen edge-on as far as the cursor moves facing the camera — planeDrag.ts),
 *    click to select it for the inspector; the selected one carries a translate gizmo (drei
 *    TransformControls, axes of the creature's frame) for moves along an axis or a plane, including across
 *    the sagittal plane. The gizmo is drawn over the handles and takes every press on its pick zones, so a
 *    neighbouring handle under an arrow never steals the press;
 *  - skewed toward the steering target as the controller used it this frame (green), with the current
 *    phase point (yellow) and where the IK put the hand (violet).
 * Every drag is one undo step and Escape during a drag puts the point back with no undo step; the orbit
 * camera is off while dragging (both drags through viewport/useDragGesture.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { TransformControls } from '@react-three/drei';
import { useFrame, useThree, type ThreeEvent } from '@react-three/fiber';
import { BufferGeometry, Float32BufferAttribute, Group, Line, LineBasicMaterial, Mesh, Raycaster, Vector3, type Object3D, type Ray } from 'three';
import { CyclicPath } from '../../../../shared/gait/cyclicPath';
import { headingToWorld, headingYaw } from '../../../../shared/gait/steering';
import { useEditor } from '../../state/store';
import { editRig, select } from '../../state/editor';
import { previewClient } from '../../preview/client';
import { selectPathPoint, usePreview } from '../../preview/previewStore';
import { setControlPoint } from '../../../../shared/authoring';
import { CONTROLLER_AUX } from '../../../../shared/preview/engine';
import { OVERLAY_COLORS, shown } from './frameData';
import { useDragGesture } from '../useDragGesture';
import { planeDragPoint, startPlaneDrag, type PlaneDragStart } from '../planeDrag';

/** Handles drawn by the overlay, by controller name, for the test hook (screen positions). */
export const pathHandles = new Map<string, Object3D[]>();

/** The translate gizmo on the selected handle (three-stdlib TransformControls), for the test hook. */
export interface PathGizmo extends Object3D { axis: string | null; dragging: boolean; reset(): void; gizmo?: { picker?: Record<string, Object3D> } }
export const pathGizmo: { current: PathGizmo | null } = { current: null };

const gizmoRay = new Raycaster();
/** Whether a view ray meets the shown path gizmo's pick zones (its arrows and planes), or it has an axis hovered. */
function gizmoUnder(ray: Ray): boolean {
  const tc = pathGizmo.current;
  if (!tc || !tc.visible) return false;
  if (tc.axis) return true;
  const picker = tc.gizmo?.picker?.translate;
  if (!picker) return false;
  gizmoRay.ray.copy(ray);
  // As the gizmo judges hover: pick zones it shows (it hides the ones of an axis seen end-on).
  return gizmoRay.intersectObject(picker, true).some((h) => h.object.visible);
}

const round = (v: number) => Math.round(v * 1e4) / 1e4; // 0.1 mm: clean numbers in the inspector and file

const SAMPLES = 128;

function curveGeometry(path: CyclicPath): BufferGeometry {
  const pts: number[] = [];
  for (let i = 0; i <= SAMPLES; i++) pts.push(...path.sample((i % SAMPLES) / SAMPLES).point);
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(pts, 3));
  return g;
}

export function PathOverlay() {
  const controllers = useEditor((s) => s.document?.rig.controllers ?? []);
  const paths = controllers.filter((c) => c.type === 'cyclicPath');
  return <>{paths.map((c) => <ControllerPath key={c.name} name={c.name} />)}</>;
}

/** A handle dragged in the path's plane: which point, the drag's constants (planeDrag.ts), and the creature's frame at the press. */
interface PlaneDrag { index: number; plane: PlaneDragStart; yaw: number; origin: Vector3 }

function ControllerPath({ name }: { name: string }) {
  const controller = useEditor((s) => s.document?.rig.controllers.find((c) => c.name === name));
  const selected = usePreview((s) => (s.selectedPoint?.controller === name ? s.selectedPoint.index : -1));
  const points = controller?.type === 'cyclicPath' ? controller.controlPoints : [];
  const interpolation = controller?.type === 'cyclicPath' ? controller.interpolation : 'centripetal-catmull-rom';
  const path = useMemo(() => { try { return new CyclicPath(points, interpolation); } catch { return null; } }, [points, interpolation]);
  const local = useRef<Group>(null);
  const skewPivot = useRef<Group>(null);
  const skewRot = useRef<Group>(null);
  const skewBack = useRef<Group>(null);
  const phaseDot = useRef<Mesh>(null);
  const ikDot = useRef<Mesh>(null);
  const handles = useRef<(Mesh | null)[]>([]);
  const camera = useThree((s) => s.camera);
  const geometry = useMemo(() => (path ? curveGeometry(path) : null), [path]);
  const lines = useMemo(() => geometry && {
    local: new Line(geometry, new LineBasicMaterial({ color: OVERLAY_COLORS.pathLocal, depthTest: false, transparent: true, opacity: 0.9 })),
    world: new Line(geometry, new LineBasicMaterial({ color: OVERLAY_COLORS.path, depthTest: false, transparent: true })),
  }, [geometry]);

  useFrame(() => {
    const client = previewClient();
    const s = shown(client);
    const L = client.layout;
    const g = local.current;
    if (!g) return;
    const k = L?.controllers.indexOf(name) ?? -1;
    const rootName = controller?.type === 'cyclicPath' ? controller.root : '';
    const b = L ? L.layout.bodies.indexOf(rootName) : -1;
    if (!s || !L || b < 0) { g.visible = false; return; }
    g.visible = true;
    const o = 1 + b * 13;
    const yaw = headingYaw([s.frame[o + 3]!, s.frame[o + 4]!, s.frame[o + 5]!, s.frame[o + 6]!]);
    g.position.set(s.frame[o]!, s.frame[o + 1]!, s.frame[o + 2]!);
    g.rotation.set(0, yaw, 0);
    if (k >= 0 && skewPivot.current && skewRot.current && skewBack.current) {
      const a = L.aux.controllers + k * CONTROLLER_AUX;
      const skew = s.aux[a + 1]!, px = s.aux[a + 5]!, pz = s.aux[a + 6]!;
      skewPivot.current.position.set(px, 0, pz);
      skewRot.current.rotation.set(0, skew, 0);
      skewBack.current.position.set(-px, 0, -pz);
      const phaseCol = 1 + L.layout.bodies.length * 13 + L.layout.joints.length * 4 + k;
      if (phaseDot.current && path) phaseDot.current.position.fromArray(path.sample(s.frame[phaseCol]!).point);
      if (ikDot.current) {
        ikDot.current.visible = s.index > 0;
        // The solved hand is a world point; this group is the creature's frame: R_y(−yaw)·(p − origin).
        const l = headingToWorld([0, 0, 0], -yaw, [s.aux[a + 10]! - g.position.x, s.aux[a + 11]! - g.position.y, s.aux[a + 12]! - g.position.z]);
        ikDot.current.position.set(l[0], l[1], l[2]);
      }
    }
  });

  const gesture = useDragGesture<PlaneDrag>({ label: (d) => `Move ${name} point ${d.index + 1}` });

  const start = (index: number) => (e: ThreeEvent<PointerEvent>): PlaneDrag | null => {
    // The gizmo is drawn over the handles and owns every press on its arrows and planes (it listens on the
    // same element, after this): a neighbouring handle under an arrow does not take the press.
    if (pathGizmo.current?.dragging || gizmoUnder(e.ray)) return null;
    select(null);
    selectPathPoint({ controller: name, index });
    const g = local.current!;
    const yaw = g.rotation.y;
    // The path lies in the creature's sagittal plane (local x = const): the drag stays in it, under the
    // cursor, or — seen edge-on — moving as far as the cursor does on the plane facing the camera.
    const handleWorld = handles.current[index]!.getWorldPosition(new Vector3());
    const normal = headingToWorld([0, 0, 0], yaw, [1, 0, 0]);
    const eye = camera.getWorldPosition(new Vector3()), forward = camera.getWorldDirection(new Vector3());
    const plane = startPlaneDrag([handleWorld.x, handleWorld.y, handleWorld.z], [normal[0], normal[1], normal[2]], [eye.x, eye.y, eye.z], [forward.x, forward.y, forward.z]);
    return { index, plane, yaw, origin: g.position.clone() };
  };

  const move = (e: ThreeEvent<PointerEvent>, d: PlaneDrag) => {
    const o = e.ray.origin, dir = e.ray.direction;
    const hit = planeDragPoint(d.plane, [o.x, o.y, o.z], [dir.x, dir.y, dir.z]);
    if (!hit) return;
    const rel = [hit[0] - d.origin.x, hit[1] - d.origin.y, hit[2] - d.origin.z] as const;
    const p = headingToWorld([0, 0, 0], -d.yaw, [rel[0], rel[1], rel[2]]);
    // The point's distance from the sagittal plane (x) is what it was: only y and z move.
    const was = points[d.index]!;
    editRig('Move path point', (rig) => setControlPoint(rig, name, d.index, [was[0]!, round(p[1]), round(p[2])]));
  };

  useFrame(() => { pathHandles.set(name, handles.current.filter((h): h is Mesh => !!h)); });

  // The selected handle's mesh mounts in the same commit as the selection; attach the gizmo after.
  const [gizmoTarget, setGizmoTarget] = useState<Mesh | null>(null);
  useEffect(() => { setGizmoTarget(selected >= 0 ? handles.current[selected] ?? null : null); }, [selected, points.length]);

  if (!lines) return null;
  return (
    <>
      {/* Outside the creature-frame group: the gizmo places itself from the handle's world pose. */}
      {gizmoTarget && selected >= 0 && <PointGizmo controller={name} index={selected} target={gizmoTarget} />}
      <group ref={local}>
        <primitive object={lines.local} renderOrder={8} />
        {points.map((p, i) => (
          <mesh
            key={i}
            ref={(m) => { handles.current[i] = m; }}
            position={[p[0], p[1], p[2]]}
            renderOrder={13}
            {...gesture.pointer({ start: start(i), move })}
            userData={{ pathPoint: { controller: name, index: i } }}
          >
            <sphereGeometry args={[selected === i ? 0.032 : 0.026, 16, 12]} />
            <meshBasicMaterial color={selected === i ? OVERLAY_COLORS.handleSelected : OVERLAY_COLORS.handle} depthTest={false} transparent opacity={0.95} />
          </mesh>
        ))}
        <group ref={skewPivot}>
          <group ref={skewRot}>
            <group ref={skewBack}>
              <primitive object={lines.world} renderOrder={9} />
              <mesh ref={phaseDot} renderOrder={14}>
                <sphereGeometry args={[0.03, 16, 12]} />
                <meshBasicMaterial color={OVERLAY_COLORS.phase} depthTest={false} transparent />
              </mesh>
            </group>
          </group>
        </group>
        <mesh ref={ikDot} renderOrder={14}>
          <sphereGeometry args={[0.02, 12, 8]} />
          <meshBasicMaterial color={OVERLAY_COLORS.ik} depthTest={false} transparent />
        </mesh>
      </group>
    </>
  );
}

/**
 * drei TransformControls (translate) on the selected handle. The handle lives in the creature's frame
 * (root position + heading), so its local position is the control point itself; space="local" aligns the
 * gizmo's axes with that frame (x across, y up, z forward). One drag = one undo step; Escape puts the
 * point back (TransformControls.reset) and ends the drag with no undo step (useDragGesture).
 */
function PointGizmo({ controller, index, target }: { controller: string; index: number; target: Mesh }) {
  const ref = useRef<PathGizmo | null>(null);
  const gesture = useDragGesture<{ index: number }>({
    label: (g) => `Move ${controller} point ${g.index + 1}`,
    // The gesture is already over here, so reset()'s objectChange does not edit; dragging = false ends
    // the gizmo's own drag.
    onCancel: () => { const tc = ref.current; if (tc) { tc.reset(); tc.dragging = false; } },
  });

  return (
    <TransformControls
      ref={(c) => { ref.current = c as unknown as PathGizmo | null; pathGizmo.current = ref.current; }}
      object={target}
      mode="translate"
      space="local"
      size={0.6}
      onMouseDown={() => gesture.begin({ index })}
      onObjectChange={() => {
        const g = gesture.active();
        if (!g) return;
        const p = target.position;
        editRig('Move path point', (rig) => setControlPoint(rig, controller, g.index, [round(p.x), round(p.y), round(p.z)]));
      }}
      onMouseUp={() => gesture.end()}
    />
  );
}
