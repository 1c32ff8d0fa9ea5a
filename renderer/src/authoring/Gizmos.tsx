/**
 * Viewport gizmos (drei TransformControls; the drag is viewport/useDragGesture.ts: orbit camera off, one
 * undo step, Escape puts everything back with no undo step):
 *  - on the selected shape: move / rotate / scale (W / E / R) in the body frame; a move or rotate edits the
 *    shape's pose live, a scale edits its size when released; the whole drag is one undo step;
 *  - on the selected joint: the anchor (move) and the axes (rotate) — both frames are re-expressed from
 *    the one world frame, so the anchors keep meeting at rest.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { TransformControls } from '@react-three/drei';
import { Object3D } from 'three';
import { jointWorldFrame, setJointWorldFrame, setShapeParams } from '../../../shared/authoring';
import type { Transform } from '../../../shared/math/transform';
import type { RigDocument, RigShape } from '../../../shared/rig';
import { useEditor } from '../state/store';
import { useAuthoring } from './authoringStore';
import { useDragGesture } from '../viewport/useDragGesture';
import { rigEdit } from './rigEdit';
import { scaledShapeParams, shapeKey, shapeObjects } from './shapeObjects';
import { syncShapeObject } from './shapeObjects';
import { previewActive } from './previewPose';
import { gizmoRegistry } from './viewportPicking';

const r6 = (v: number) => Number(v.toFixed(6));

/** What Escape needs of a drei TransformControls: put the object back where the drag began, end the drag. */
interface GizmoControls { axis: string | null; dragging: boolean; reset(): void }
const stopGizmo = (tc: GizmoControls | null) => { if (tc) { tc.reset(); tc.dragging = false; } };

export function ShapeGizmo() {
  const sel = useEditor((s) => s.session.selection);
  const rig = useEditor((s) => s.document?.rig ?? null);
  const mode = useAuthoring((s) => s.gizmoMode);
  const [target, setTarget] = useState<Object3D | null>(null);
  const controls = useRef<GizmoControls | null>(null);
  const body = sel && (sel.kind === 'shape' || sel.kind === 'body') ? sel.name : null;
  const index = sel?.kind === 'shape' ? sel.index : 0;
  const shape = body ? rig?.bodies.find((b) => b.name === body)?.shapes[index] ?? null : null;
  // Whatever was accepted (or, after Escape, the document as it was), the object shows what the document says.
  const resync = (d: ShapeDrag) => {
    const now = useEditor.getState().document?.rig.bodies.find((b) => b.name === d.body)?.shapes[d.index];
    if (now) syncShapeObject(d.object, now);
  };
  const gesture = useDragGesture<ShapeDrag>({
    label: (d) => d.label,
    onEnd: (d) => {
      if (d.mode === 'scale') {
        const o = d.object;
        const f: [number, number, number] = [Math.abs(o.scale.x), Math.abs(o.scale.y), Math.abs(o.scale.z)];
        if (f.some((v) => Math.abs(v - 1) > 1e-6)) rigEdit(d.label, (r) => setShapeParams(r, d.body, d.index, scaledShapeParams(d.shape, f)));
      }
      resync(d);
    },
    onCancel: (d) => { stopGizmo(controls.current); resync(d); },
  });
  // The shape object mounts in the same commit; look it up after.
  useEffect(() => { setTarget(body && shape ? shapeObjects.get(shapeKey(body, index)) ?? null : null); }, [body, index, shape]);
  if (!target || !body || !shape || previewActive()) return null;
  const label = `${mode === 'translate' ? 'Move' : mode === 'rotate' ? 'Rotate' : 'Scale'} shape (${body})`;
  return (
    <TransformControls
      ref={(c) => { controls.current = c as unknown as GizmoControls | null; gizmoRegistry.shape = controls.current; }}
      object={target}
      mode={mode}
      space="local"
      size={0.8}
      onMouseDown={() => gesture.begin({ body, index, shape, mode, label, object: target })}
      onObjectChange={() => {
        if (!gesture.active() || mode === 'scale') return; // a scale applies on release: the object's scale is relative to the drag start
        const o = target;
        rigEdit(label, (r) => setShapeParams(r, body, index, {
          position: [r6(o.position.x), r6(o.position.y), r6(o.position.z)],
          rotation: [r6(o.quaternion.x), r6(o.quaternion.y), r6(o.quaternion.z), r6(o.quaternion.w)],
        }));
      }}
      onMouseUp={() => gesture.end()}
    />
  );
}

interface ShapeDrag { body: string; index: number; shape: RigShape; mode: 'translate' | 'rotate' | 'scale'; label: string; object: Object3D }

export function JointGizmo({ rig, rest }: { rig: RigDocument; rest: Map<string, Transform> }) {
  const sel = useEditor((s) => (s.session.selection?.kind === 'joint' ? s.session.selection.name : null));
  const mode = useAuthoring((s) => s.gizmoMode);
  const anchor = useMemo(() => new Object3D(), []);
  const controls = useRef<GizmoControls | null>(null);
  // Escape: the document goes back; the anchor follows it on the next render (the effect below).
  const gesture = useDragGesture<{ label: string }>({ label: (d) => d.label, onCancel: () => stopGizmo(controls.current) });
  const world = sel ? jointWorldFrame(rig, sel) : null;
  useEffect(() => {
    if (!world || gesture.active()) return;
    anchor.position.set(...world.position);
    anchor.quaternion.set(...world.rotation).normalize();
    anchor.updateMatrixWorld();
  });
  if (!sel || !world || previewActive()) return null;
  const label = mode === 'rotate' ? `Rotate joint axes (${sel})` : `Move joint anchor (${sel})`;
  return (
    <>
      <primitive object={anchor} />
      <TransformControls
        ref={(c) => { controls.current = c as unknown as GizmoControls | null; gizmoRegistry.joint = controls.current; }}
        object={anchor}
        mode={mode === 'scale' ? 'translate' : mode}
        space="local"
        size={0.6}
        onMouseDown={() => gesture.begin({ label })}
        onObjectChange={() => {
          if (!gesture.active()) return;
          const W: Transform = {
            position: [anchor.position.x, anchor.position.y, anchor.position.z],
            rotation: [anchor.quaternion.x, anchor.quaternion.y, anchor.quaternion.z, anchor.quaternion.w],
          };
          rigEdit(label, (r) => setJointWorldFrame(r, sel, W, rest));
        }}
        onMouseUp={() => gesture.end()}
      />
    </>
  );
}
