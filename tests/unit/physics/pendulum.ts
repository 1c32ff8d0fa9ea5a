/** Energy of released rod pendulums (issue 11 item 2): max |E(t) − E(0)| over 10 s as a fraction of the swing energy. */
import { quatFromAxisAngle, quatRotate } from '../../../shared/math/quat';
import { World } from '../../../shared/physics/world';
import type { BodyHandle, WorldSettings } from '../../../shared/physics/types';
import { energy } from './helpers';

export type PendulumKind = 'hinge' | 'ball' | 'double-hinge' | 'double-ball';

/** A rod (capsule r 0.02 m, 1 m between its hemisphere centres... total length L) hung from a fixed pivot at (0, 2, 0),
 *  released from rest at `angle` from the downward vertical, swinging in the x-y plane. */
export function pendulumEnergy(kind: PendulumKind, settings: Partial<WorldSettings> = {}, seconds = 10, dt = 1 / 60, angle = Math.PI / 3,
  /** The lower rod's angle from the downward vertical (double pendulums; default: in line with the upper). */
  angle2 = angle): { maxLoss: number; endLoss: number; swing: number } {
  const w = new World({ substeps: 2, ...settings });
  const L = 1, half = L / 2;
  const pivot: [number, number, number] = [0, 2, 0];
  const anchor = w.addBody({ type: 'static', position: pivot, shapes: [{ type: 'sphere', radius: 0.01 }], collisionMask: 0, collisionGroup: 0 });
  const links = kind.startsWith('double') ? 2 : 1;
  const tilts = [quatFromAxisAngle([0, 0, 1], angle), quatFromAxisAngle([0, 0, 1], angle2)]; // rod's -y axis turned about z
  const bodies: BodyHandle[] = [];
  let top: [number, number, number] = pivot, prev = anchor;
  for (let i = 0; i < links; i++) {
    const tilt = tilts[i]!;
    const dir = quatRotate(tilt, [0, -1, 0]);
    const centre: [number, number, number] = [top[0] + dir[0] * half, top[1] + dir[1] * half, top[2] + dir[2] * half];
    const body = w.addBody({ type: 'dynamic', position: centre, rotation: tilt, shapes: [{ type: 'capsule', radius: 0.02, halfHeight: half - 0.02 }], mass: 1, collisionGroup: 0, collisionMask: 0 });
    const type = kind.endsWith('ball') ? 'ball' : 'hinge';
    // Hinge axis = world z = frame X: rotate frame X onto body-local z.
    const frameRot = quatFromAxisAngle([0, 1, 0], -Math.PI / 2);
    w.addJoint({ type, bodyA: prev, bodyB: body,
      frameA: { position: i === 0 ? [0, 0, 0] : [0, -half, 0], rotation: i === 0 ? quatMulConj(tilt, frameRot) : frameRot },
      // The frames coincide in world at the start: frame B = tilt⁻¹ · (upper tilt) · frameRot.
      frameB: { position: [0, half, 0], rotation: i === 0 ? frameRot : quatMulConj([-tilt[0], -tilt[1], -tilt[2], tilt[3]], quatMulConj(tilts[0]!, frameRot)) } } as never);
    bodies.push(body);
    top = [top[0] + dir[0] * L, top[1] + dir[1] * L, top[2] + dir[2] * L];
    prev = body;
  }
  const g = -(settings.gravity?.[1] ?? -9.81);
  const e0 = energy(w, bodies, g);
  // Swing energy: E(0) minus the energy hanging straight down at rest.
  let bottom = 0;
  for (let i = 0; i < links; i++) bottom += 1 * g * (pivot[1] - (i * L + half));
  const swing = e0 - bottom;
  let maxLoss = 0, e = e0;
  for (let s = 0; s < Math.round(seconds / dt); s++) {
    w.step(dt);
    e = energy(w, bodies, g);
    maxLoss = Math.max(maxLoss, Math.abs(e - e0) / swing);
  }
  return { maxLoss, endLoss: (e0 - e) / swing, swing };
}

function quatMulConj(tilt: readonly number[], frameRot: readonly number[]): [number, number, number, number] {
  // frame A on the static anchor (identity rotation) must equal the rod's frame in world at rest: tilt · frameRot.
  const [ax, ay, az, aw] = tilt as [number, number, number, number];
  const [bx, by, bz, bw] = frameRot as [number, number, number, number];
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}
