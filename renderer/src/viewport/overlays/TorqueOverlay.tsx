/**
 * Motor torque at the recorded poses: per joint, a disc at the joint's anchor coloured by the motor torque
 * of the frame — blue idle → yellow → red at the limit (saturated), grey while limp — and sized by |τ|/τmax.
 * Drawn over the mesh. The joints themselves (axes and limits) are the rig layer's (authoring/JointLimits.tsx,
 * the Joints toggle), drawn at the same poses.
 */
import { useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { Color, Group, Matrix4, Mesh, MeshBasicMaterial, Quaternion, SphereGeometry, Vector3 } from 'three';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { bodyPose, shown, torqueColor } from './frameData';

export function TorqueOverlay() {
  const recorded = usePreview((s) => s.recorded > 0);
  const layout = previewClient().layout;
  const root = useRef<Group>(null);
  const built = useMemo(() => {
    if (!layout) return null;
    const joints = layout.rig.joints.filter((j) => j.type !== 'fixed').map((j) => {
      const g = new Group();
      const disc = new Mesh(new SphereGeometry(0.028, 16, 12), new MeshBasicMaterial({ color: '#3f7fbf', depthTest: false, transparent: true, opacity: 0.95 }));
      disc.renderOrder = 11;
      g.add(disc);
      const fa = j.frameA;
      const local = new Matrix4().compose(
        new Vector3(fa.position[0], fa.position[1], fa.position[2]),
        new Quaternion(fa.rotation[0], fa.rotation[1], fa.rotation[2], fa.rotation[3]).normalize(), new Vector3(1, 1, 1));
      return { g, disc, local, bodyA: layout.layout.bodies.indexOf(j.bodyA), joint: layout.layout.joints.indexOf(j.name) };
    });
    return { joints };
  }, [layout, recorded]);

  const tmp = useMemo(() => ({ p: new Vector3(), q: new Quaternion(), m: new Matrix4(), c: new Color(), s: new Vector3(1, 1, 1) }), []);
  useFrame(() => {
    const client = previewClient();
    const s = shown(client);
    if (!built || !s || !root.current) { if (root.current) root.current.visible = false; return; }
    root.current.visible = true;
    const L = client.layout!;
    const jointBase = 1 + L.layout.bodies.length * 13;
    for (const j of built.joints) {
      bodyPose(s.frame, j.bodyA, tmp.p, tmp.q);
      tmp.m.compose(tmp.p, tmp.q, tmp.s).multiply(j.local);
      tmp.m.decompose(j.g.position, j.g.quaternion, j.g.scale);
      const o = jointBase + j.joint * 4;
      const tq = Math.abs(s.frame[o + 1]!), max = s.frame[o + 2]!, sat = s.frame[o + 3] === 1;
      const limp = s.aux[L.aux.motors + j.joint] === 0;
      const mat = j.disc.material as MeshBasicMaterial;
      if (limp) mat.color.set('#6b6f76'); else torqueColor(max > 0 ? tq / max : 0, sat, mat.color);
      j.disc.scale.setScalar(limp ? 0.7 : 0.8 + 0.6 * Math.min(1, max > 0 ? tq / max : 0));
    }
  });

  if (!built) return null;
  return <group ref={root} name="torque">{built.joints.map((j, i) => <primitive key={i} object={j.g} />)}</group>;
}
