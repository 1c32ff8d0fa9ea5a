/**
 * Viewport gizmos (drei TransformControls, which turns the orbit camera off while dragging):
 *  - on the selected shape: move / rotate / scale (W / E / R) in the body frame; a move or rotate edits the
 *    shape's pose live, a scale edits its size when released; the whole drag is one undo step;
 *  - on the selected joint: the anchor (move) and the axes (rotate) — both frames are re-expressed from
 *    the one world frame, so the anchors keep meeting at rest.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { TransformControls } from '@react-three/drei';
import { Object3D } from 'three';
import { finishEdit, jointWorldFrame, setShapeParams } from '../../../shared/authoring';
import { composeTransforms, invertTransform, type Transform } from '../../../shared/math/transform';
import type { Quat } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import type { RigDocument } from '../../../shared/rig';
import { beginGesture, endGesture } from '../state/editor';
import { useEditor } from '../state/store';
import { setAuthoring, useAuthoring } from './authoringStore';
import { rigEdit } from './rigEdit';
import { scaledShapeParams, shapeKey, shapeObjects } from './shapeObjects';
import { syncShapeObject } from './shapeObjects';
import { previewActive } from './previewPose';
import { gizmoRegistry } from './viewportPicking';

const r6 = (v: number) => Number(v.toFixed(6));

export function ShapeGizmo() {
  const sel = useEditor((s) => s.session.selection);
  const rig = useEditor((s) => s.document?.rig ?? null);
  const mode = useAuthoring((s) => s.gizmoMode);
  const [target, setTarget] = useState<Object3D | null>(null);
  const mark = useRef<string | null>(null);
  const body = sel && (sel.kind === 'shape' || sel.kind === 'body') ? sel.name : null;
  const index = sel?.kind === 'shape' ? sel.index : 0;
  const shape = body ? rig?.bodies.find((b) => b.name === body)?.shapes[index] ?? null : null;
  // The shape object mounts in the same commit; look it up after.
  useEffect(() => { setTarget(body && shape ? shapeObjects.get(shapeKey(body, index)) ?? null : null); }, [body, index, shape]);
  if (!target || !body || !shape || previewActive()) return null;
  const label = `${mode === 'translate' ? 'Move' : mode === 'rotate' ? 'Rotate' : 'Scale'} shape (${body})`;
  return (
    <TransformControls
      ref={(c) => { gizmoRegistry.shape = c as unknown as { axis: string | null } | null; }}
      object={target}
      mode={mode}
      space="local"
      size={0.8}
      onMouseDown={() => { mark.current = beginGesture(); setAuthoring({ dragging: true }); }}
      onObjectChange={() => {
        if (mode === 'scale') return; // applied on release: the object's scale is relative to the drag start
        const o = target;
        rigEdit(label, (r) => setShapeParams(r, body, index, {
          position: [r6(o.position.x), r6(o.position.y), r6(o.position.z)],
          rotation: [r6(o.quaternion.x), r6(o.quaternion.y), r6(o.quaternion.z), r6(o.quaternion.w)],
        }));
      }}
      onMouseUp={() => {
        const o = target;
        if (mode === 'scale') {
          const f: [number, number, number] = [Math.abs(o.scale.x), Math.abs(o.scale.y), Math.abs(o.scale.z)];
          if (f.some((v) => Math.abs(v - 1) > 1e-6)) rigEdit(label, (r) => setShapeParams(r, body, index, scaledShapeParams(shape, f)));
        }
        // Whatever was accepted, the object goes back to what the document says.
        const now = useEditor.getState().document?.rig.bodies.find((b) => b.name === body)?.shapes[index];
        if (now) syncShapeObject(o, now);
        if (mark.current) endGesture(mark.current, label);
        mark.current = null;
        setAuthoring({ dragging: false });
      }}
    />
  );
}

/** Joint frames from one world frame W: frameA = A⁻¹·W, frameB = B⁻¹·W (rest poses). */
export function setJointWorldFrame(rig: RigDocument, name: string, W: Transform, rest: Map<string, Transform>) {
  const j = rig.joints.find((x) => x.name === name);
  const A = j && rest.get(j.bodyA), B = j && rest.get(j.bodyB);
  if (!j || !A || !B) return { ok: false as const, field: 'joint', message: `joint "${name}" needs both its bodies` };
  const local = (T: Transform) => {
    const t = composeTransforms(invertTransform(T), W);
    return { position: t.position.map(r6) as Vec3, rotation: t.rotation.map(r6) as Quat };
  };
  return finishEdit(rig, { ...rig, joints: rig.joints.map((x) => (x.name === name ? { ...x, frameA: local(A), frameB: local(B) } : x)) });
}

export function JointGizmo({ rig, rest }: { rig: RigDocument; rest: Map<string, Transform> }) {
  const sel = useEditor((s) => (s.session.selection?.kind === 'joint' ? s.session.selection.name : null));
  const mode = useAuthoring((s) => s.gizmoMode);
  const anchor = useMemo(() => new Object3D(), []);
  const mark = useRef<string | null>(null);
  const world = sel ? jointWorldFrame(rig, sel) : null;
  useEffect(() => {
    if (!world || mark.current) return;
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
        ref={(c) => { gizmoRegistry.joint = c as unknown as { axis: string | null } | null; }}
        object={anchor}
        mode={mode === 'scale' ? 'translate' : mode}
        space="local"
        size={0.6}
        onMouseDown={() => { mark.current = beginGesture(); setAuthoring({ dragging: true }); }}
        onObjectChange={() => {
          const W: Transform = {
            position: [anchor.position.x, anchor.position.y, anchor.position.z],
            rotation: [anchor.quaternion.x, anchor.quaternion.y, anchor.quaternion.z, anchor.quaternion.w],
          };
          rigEdit(label, (r) => setJointWorldFrame(r, sel, W, rest));
        }}
        onMouseUp={() => {
          if (mark.current) endGesture(mark.current, label);
          mark.current = null;
          setAuthoring({ dragging: false });
        }}
      />
    </>
  );
}
