/** Small scene builders and measurements shared by the physics tests. */
import { quatFromAxisAngle, quatRotate } from '../../../shared/math/quat';
import type { Vec3 } from '../../../shared/math/vec3';
import { World } from '../../../shared/physics/world';
import type { BodyHandle, MotorDesc, WorldSettings } from '../../../shared/physics/types';

/** Joint frame whose X axis is world Z (rotate −90° about Y): a hinge about Z. */
export const X_TO_Z = quatFromAxisAngle([0, 1, 0], -Math.PI / 2);

/** Kinetic + potential energy (J) of the given bodies, gravity g along −y. */
export function energy(w: World, bodies: BodyHandle[], g = 9.81): number {
  let e = 0;
  for (const b of bodies) {
    const mp = w.getMassProperties(b);
    const v = w.getLinearVelocity(b), om = w.getAngularVelocity(b), q = w.getRotation(b);
    const wb = quatRotate([-q[0], -q[1], -q[2], q[3]], om); // body-frame ω
    const I = mp.inertia;
    const Iw = [I[0]! * wb[0] + I[1]! * wb[1] + I[2]! * wb[2], I[3]! * wb[0] + I[4]! * wb[1] + I[5]! * wb[2], I[6]! * wb[0] + I[7]! * wb[1] + I[8]! * wb[2]];
    e += 0.5 * mp.mass * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2) + 0.5 * (wb[0] * Iw[0]! + wb[1] * Iw[1]! + wb[2] * Iw[2]!);
    e += mp.mass * g * w.getCenterOfMass(b)[1];
  }
  return e;
}

/** Linear and angular momentum (about the origin) of the bodies. */
export function momentum(w: World, bodies: BodyHandle[]): { P: Vec3; L: Vec3 } {
  const P: Vec3 = [0, 0, 0], L: Vec3 = [0, 0, 0];
  for (const b of bodies) {
    const mp = w.getMassProperties(b);
    const v = w.getLinearVelocity(b), om = w.getAngularVelocity(b), q = w.getRotation(b), c = w.getCenterOfMass(b);
    const wb = quatRotate([-q[0], -q[1], -q[2], q[3]], om);
    const I = mp.inertia;
    const Lb: Vec3 = [I[0]! * wb[0] + I[1]! * wb[1] + I[2]! * wb[2], I[3]! * wb[0] + I[4]! * wb[1] + I[5]! * wb[2], I[6]! * wb[0] + I[7]! * wb[1] + I[8]! * wb[2]];
    const Lw = quatRotate(q, Lb);
    for (let k = 0; k < 3; k++) P[k]! += mp.mass * v[k]!;
    L[0] += Lw[0] + mp.mass * (c[1] * v[2] - c[2] * v[1]);
    L[1] += Lw[1] + mp.mass * (c[2] * v[0] - c[0] * v[2]);
    L[2] += Lw[2] + mp.mass * (c[0] * v[1] - c[1] * v[0]);
  }
  return { P, L };
}

/**
 * A thin arm of mass m and length L on a horizontal hinge (axis world Z) at the origin, lying along +x:
 * gravity needs τ = m·g·L/2 to hold it level.
 */
export function hingeArm(m: number, L: number, motor?: MotorDesc, settings: Partial<WorldSettings> = {}) {
  const w = new World(settings);
  const base = w.addBody({ name: 'base', type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
  const arm = w.addBody({ name: 'arm', type: 'dynamic', position: [L / 2, 0, 0], mass: m, shapes: [{ type: 'box', halfExtents: [L / 2, 0.01, 0.01] }] });
  const joint = w.addJoint({
    name: 'shoulder', type: 'hinge', bodyA: base, bodyB: arm,
    frameA: { position: [0, 0, 0], rotation: X_TO_Z }, frameB: { position: [-L / 2, 0, 0], rotation: X_TO_Z }, motor,
  });
  return { w, base, arm, joint };
}

/** Deterministic PRNG (mulberry32) for scene generation in tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the bytes of the float arrays: a state hash for determinism tests. */
export function hashState(w: World): string {
  let h = 0x811c9dc5;
  for (const a of [w.bodies.p, w.bodies.q, w.bodies.v, w.bodies.w, w.joints.data]) {
    const u = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u[i]!, 0x01000193);
  }
  return (h >>> 0).toString(16);
}
