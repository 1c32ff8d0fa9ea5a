/** Bodies as translucent shapes at their recorded poses (limp bodies grey). */
import { useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { BoxGeometry, CapsuleGeometry, Color, CylinderGeometry, Group, Mesh, MeshStandardMaterial, Quaternion, SphereGeometry, Vector3, type BufferGeometry } from 'three';
import type { RigShape } from '../../../../shared/rig';
import { previewClient } from '../../preview/client';
import { usePreview } from '../../preview/previewStore';
import { OVERLAY_COLORS, bodyPose, shown } from './frameData';

function shapeGeometry(s: RigShape): BufferGeometry {
  switch (s.type) {
    case 'sphere': return new SphereGeometry(s.radius, 24, 16);
    case 'capsule': return new CapsuleGeometry(s.radius, 2 * s.halfHeight, 8, 20);
    case 'box': return new BoxGeometry(2 * s.halfExtents[0], 2 * s.halfExtents[1], 2 * s.halfExtents[2]);
    case 'cylinder': return new CylinderGeometry(s.radius, s.radius, 2 * s.halfHeight, 24);
    case 'ellipsoid': { const g = new SphereGeometry(1, 24, 16); g.scale(s.radii[0], s.radii[1], s.radii[2]); return g; }
    default: return new SphereGeometry(0.05);
  }
}

/** three's capsule/cylinder run along Y; the rig's may run along X or Z. */
const axisRotation = (s: RigShape): Quaternion => {
  const axis = 'axis' in s ? s.axis : 'y';
  const q = new Quaternion();
  if (axis === 'x') q.setFromAxisAngle(new Vector3(0, 0, 1), -Math.PI / 2);
  if (axis === 'z') q.setFromAxisAngle(new Vector3(1, 0, 0), Math.PI / 2);
  return q;
};

export function BodiesOverlay() {
  const recorded = usePreview((s) => s.recorded > 0);
  const layout = previewClient().layout;
  const group = useRef<Group>(null);
  const built = useMemo(() => {
    if (!layout) return null;
    const material = new MeshStandardMaterial({ color: OVERLAY_COLORS.body, transparent: true, opacity: 0.28, depthWrite: false, roughness: 0.6 });
    const bodies = layout.rig.bodies.map((b) => {
      const g = new Group();
      g.name = `body:${b.name}`;
      for (const s of b.shapes) {
        const mesh = new Mesh(shapeGeometry(s), material);
        const pose = s as { position?: number[]; rotation?: number[] };
        if (pose.position) mesh.position.set(pose.position[0]!, pose.position[1]!, pose.position[2]!);
        const q = pose.rotation ? new Quaternion(pose.rotation[0], pose.rotation[1], pose.rotation[2], pose.rotation[3]) : new Quaternion();
        mesh.quaternion.copy(q.multiply(axisRotation(s)));
        mesh.renderOrder = 2;
        g.add(mesh);
      }
      return g;
    });
    return { bodies, material };
    // Rebuilt when the host restarts for a new rig (layout identity changes).
  }, [layout, recorded]);
  const grey = useMemo(() => new Color(OVERLAY_COLORS.bodyLimp), []);
  const blue = useMemo(() => new Color(OVERLAY_COLORS.body), []);

  useFrame(() => {
    const client = previewClient();
    const s = shown(client);
    if (!built || !s || !group.current) { if (group.current) group.current.visible = false; return; }
    group.current.visible = true;
    built.bodies.forEach((g, i) => bodyPose(s.frame, i, g.position, g.quaternion));
    const L = client.layout!;
    let anyLimp = false;
    for (let j = 0; j < L.layout.joints.length; j++) if (s.aux[L.aux.motors + j] === 0) anyLimp = true;
    built.material.color.copy(anyLimp ? grey : blue);
  });

  if (!built) return null;
  return <group ref={group}>{built.bodies.map((g) => <primitive key={g.name} object={g} />)}</group>;
}
