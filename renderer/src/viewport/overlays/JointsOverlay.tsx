/**
 * Joints at their recorded poses: frame axes (X red = hinge / twist axis, Y green = angle reference,
 * Z blue), limits (hinge arc; ball swing cone and twist fan) and, per joint, a disc coloured by the motor
 * torque of the frame: blue idle → yellow → red at the limit (saturated). Drawn over the mesh.
 */
import { useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import {
  BufferGeometry, Color, Float32BufferAttribute, Group, LineBasicMaterial, LineSegments, Matrix4, Mesh, MeshBasicMaterial,
  Quaternion, SphereGeometry, Vector3,
} from 'three';
import type { RigJoint } from '../../../../shared/rig';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { OVERLAY_COLORS, bodyPose, shown, torqueColor } from './frameData';

const AXIS = 0.12;
const LIMIT_R = 0.1;

function segments(points: number[][], color: string, opacity = 1): LineSegments {
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(points.flat(), 3));
  const l = new LineSegments(g, new LineBasicMaterial({ color, depthTest: false, transparent: true, opacity }));
  l.renderOrder = 10;
  return l;
}

/** Polyline → segment pairs. */
const pairs = (pts: number[][]): number[][] => pts.slice(1).flatMap((p, i) => [pts[i]!, p]);

/** Points of an arc about X in the YZ plane from angle a to b (measured from +Y toward +Z), radius r. */
const arc = (a: number, b: number, r: number, n = 24): number[][] =>
  Array.from({ length: n + 1 }, (_, i) => { const t = a + ((b - a) * i) / n; return [0, r * Math.cos(t), r * Math.sin(t)]; });

function limitLines(j: RigJoint): LineSegments[] {
  if (j.type === 'hinge' && j.limit) {
    const pts = arc(j.limit[0], j.limit[1], LIMIT_R);
    return [segments([[0, 0, 0], pts[0]!, ...pairs(pts), [0, 0, 0], pts.at(-1)!], OVERLAY_COLORS.limit, 0.9)];
  }
  if (j.type === 'ball') {
    const out: LineSegments[] = [];
    if (j.swingLimit) {
      // Elliptical swing cone about X: half-angle sy toward Y, sz toward Z.
      const [sy, sz] = j.swingLimit;
      const ring: number[][] = [];
      for (let i = 0; i <= 40; i++) {
        const phi = (2 * Math.PI * i) / 40;
        const a = 1 / Math.sqrt((Math.cos(phi) / sy) ** 2 + (Math.sin(phi) / sz) ** 2);
        const c = Math.min(a, Math.PI);
        ring.push([LIMIT_R * Math.cos(c), LIMIT_R * Math.sin(c) * Math.cos(phi), LIMIT_R * Math.sin(c) * Math.sin(phi)]);
      }
      const spokes = [0, 10, 20, 30].flatMap((k) => [[0, 0, 0], ring[k]!]);
      out.push(segments([...pairs(ring), ...spokes], OVERLAY_COLORS.limit, 0.8));
    }
    if (j.twistLimit) {
      const pts = arc(j.twistLimit[0], j.twistLimit[1], LIMIT_R * 0.6);
      out.push(segments([[0, 0, 0], pts[0]!, ...pairs(pts), [0, 0, 0], pts.at(-1)!], '#ffa94d', 0.9));
    }
    return out;
  }
  return [];
}

export function JointsOverlay({ axes, torque }: { axes: boolean; torque: boolean }) {
  const recorded = usePreview((s) => s.recorded > 0);
  const layout = previewClient().layout;
  const root = useRef<Group>(null);
  const built = useMemo(() => {
    if (!layout) return null;
    const rig = layout.rig;
    const joints = rig.joints.map((j) => {
      const g = new Group();
      if (axes) {
        g.add(segments([[0, 0, 0], [AXIS, 0, 0]], OVERLAY_COLORS.axisX));
        g.add(segments([[0, 0, 0], [0, AXIS, 0]], OVERLAY_COLORS.axisY));
        g.add(segments([[0, 0, 0], [0, 0, AXIS]], OVERLAY_COLORS.axisZ));
        for (const l of limitLines(j)) g.add(l);
      }
      const disc = new Mesh(new SphereGeometry(0.028, 16, 12), new MeshBasicMaterial({ color: '#3f7fbf', depthTest: false, transparent: true, opacity: 0.95 }));
      disc.renderOrder = 11;
      disc.visible = torque && j.type !== 'fixed';
      g.add(disc);
      const fa = j.frameA;
      const local = new Matrix4().compose(
        new Vector3(fa.position[0], fa.position[1], fa.position[2]),
        new Quaternion(fa.rotation[0], fa.rotation[1], fa.rotation[2], fa.rotation[3]).normalize(), new Vector3(1, 1, 1));
      return { g, disc, local, bodyA: layout.layout.bodies.indexOf(j.bodyA), joint: layout.layout.joints.indexOf(j.name) };
    });
    return { joints };
  }, [layout, recorded, axes, torque]);

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
      if (j.disc.visible) {
        const o = jointBase + j.joint * 4;
        const tq = Math.abs(s.frame[o + 1]!), max = s.frame[o + 2]!, sat = s.frame[o + 3] === 1;
        const limp = s.aux[L.aux.motors + j.joint] === 0;
        const mat = j.disc.material as MeshBasicMaterial;
        if (limp) mat.color.set('#6b6f76'); else torqueColor(max > 0 ? tq / max : 0, sat, mat.color);
        j.disc.scale.setScalar(limp ? 0.7 : 0.8 + 0.6 * Math.min(1, max > 0 ? tq / max : 0));
      }
    }
  });

  if (!built) return null;
  return <group ref={root}>{built.joints.map((j, i) => <primitive key={i} object={j.g} />)}</group>;
}
