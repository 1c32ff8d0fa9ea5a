/**
 * three objects for rig shapes, and the registry the gizmos, picking and the test hook use to find the
 * object drawn for a body or shape (module scope: reading it never re-renders anything).
 */
import { BoxGeometry, CapsuleGeometry, CylinderGeometry, SphereGeometry, type BufferGeometry, type Object3D } from 'three';
import type { RigShape } from '../../../shared/rig';

/** Geometry of a shape in its own frame (three's capsule and cylinder run along Y; others are turned). */
export function shapeGeometry(s: RigShape): BufferGeometry {
  const along = (g: BufferGeometry, axis: 'x' | 'y' | 'z') => {
    if (axis === 'x') g.rotateZ(-Math.PI / 2);
    if (axis === 'z') g.rotateX(Math.PI / 2);
    return g;
  };
  switch (s.type) {
    case 'sphere': return new SphereGeometry(s.radius, 24, 16);
    case 'capsule': return along(new CapsuleGeometry(s.radius, 2 * s.halfHeight, 8, 20), s.axis);
    case 'cylinder': return along(new CylinderGeometry(s.radius, s.radius, 2 * s.halfHeight, 24), s.axis);
    case 'box': return new BoxGeometry(2 * s.halfExtents[0], 2 * s.halfExtents[1], 2 * s.halfExtents[2]);
    case 'ellipsoid': return new SphereGeometry(1, 24, 16).scale(s.radii[0], s.radii[1], s.radii[2]);
  }
}

/** Size parameters scaled by a gizmo's per-axis factors (in the shape frame). Radii take the mean of
 *  the two cross axes, a length the factor along the shape's axis. */
export function scaledShapeParams(s: RigShape, f: [number, number, number]): Partial<RigShape> {
  const k = { x: 0, y: 1, z: 2 } as const;
  const round = (v: number) => Number(Math.max(v, 1e-4).toFixed(4));
  switch (s.type) {
    case 'sphere': return { radius: round(s.radius * (f[0] + f[1] + f[2]) / 3) };
    case 'capsule': case 'cylinder': {
      const a = k[s.axis];
      const cross = f.filter((_, i) => i !== a);
      return { radius: round(s.radius * (cross[0]! + cross[1]!) / 2), halfHeight: round(s.halfHeight * f[a]!) };
    }
    case 'box': return { halfExtents: [round(s.halfExtents[0] * f[0]), round(s.halfExtents[1] * f[1]), round(s.halfExtents[2] * f[2])] };
    case 'ellipsoid': return { radii: [round(s.radii[0] * f[0]), round(s.radii[1] * f[1]), round(s.radii[2] * f[2])] };
  }
}

export const bodyObjects = new Map<string, Object3D>();
export const shapeObjects = new Map<string, Object3D>();
export const shapeKey = (body: string, index: number): string => `${body}#${index}`;

/** Put a shape object back where the document says (after a gizmo moved or scaled it). */
export function syncShapeObject(o: Object3D, s: RigShape): void {
  o.position.set(s.position[0], s.position[1], s.position[2]);
  o.quaternion.set(s.rotation[0], s.rotation[1], s.rotation[2], s.rotation[3]).normalize();
  o.scale.set(1, 1, 1);
}
