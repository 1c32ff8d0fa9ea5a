import { describe, expect, it } from 'vitest';
import { inheritVelocity } from '../../../shared/authoring';
import { quatFromRotationVector, quatMul, quatRotate, type Quat, type Vec3 } from '../../../shared/math';
import { World } from '../../../shared/physics/world';

const rel = (a: readonly number[], b: readonly number[]) => Math.hypot(...a.map((x, k) => x - b[k]!)) / Math.hypot(...b);

describe('inheritVelocity (seed 002)', () => {
  const v: Vec3 = [1.2, -0.4, 2.5], w: Vec3 = [0.8, -1.5, 0.6], dt = 1 / 60;
  const q0: Quat = quatFromRotationVector([0.3, 0.2, -0.5]);
  // The animation: p(t) = p0 + v·t, q(t) = exp(ω·t)·q0 (ω in world axes).
  const poseAt = (t: number) => ({ position: [0.5 + v[0] * t, 1 + v[1] * t, -0.2 + v[2] * t] as Vec3, rotation: quatMul(quatFromRotationVector([w[0] * t, w[1] * t, w[2] * t]), q0) });

  it('recovers the linear and angular velocity of an animated body', () => {
    const got = inheritVelocity(poseAt(0), poseAt(dt), dt);
    expect(rel(got.linear, v)).toBeLessThan(1e-9);
    expect(rel(got.angular, w)).toBeLessThan(1e-9);
  });

  it('takes the shortest arc: q and −q are the same rotation', () => {
    const a = poseAt(0), b = poseAt(dt);
    const flipped = { ...b, rotation: b.rotation.map((x) => -x) as Quat };
    expect(rel(inheritVelocity(a, flipped, dt).angular, w)).toBeLessThan(1e-9);
    // A turn of 3.5 rad in one frame is read as 2π − 3.5 the other way (the short way).
    const spin = inheritVelocity({ position: [0, 0, 0], rotation: [0, 0, 0, 1] }, { position: [0, 0, 0], rotation: quatFromRotationVector([0, 3.5, 0]) }, 1);
    expect(spin.angular[1]).toBeCloseTo(3.5 - 2 * Math.PI, 9);
  });

  it('the centre of mass velocity includes ω × r for an off-centre centroid', () => {
    const c: Vec3 = [0.3, 0, 0];
    const got = inheritVelocity(poseAt(0), poseAt(1e-6), 1e-6, c);
    const r = quatRotate(q0, c);
    const expected: Vec3 = [v[0] + w[1] * r[2] - w[2] * r[1], v[1] + w[2] * r[0] - w[0] * r[2], v[2] + w[0] * r[1] - w[1] * r[0]];
    expect(rel(got.linear, expected)).toBeLessThan(1e-4);
  });

  it('a body switched from animation to physics keeps its velocity within 1 % after one step', () => {
    const world = new World({ gravity: [0, 0, 0] });
    // A 0.2 m ball whose centre sits 0.3 m from the body origin: the switch must carry the centroid's velocity.
    const c: Vec3 = [0.3, 0, 0];
    const body = world.addBody({ type: 'kinematic', position: poseAt(0).position, rotation: poseAt(0).rotation, shapes: [{ type: 'sphere', radius: 0.2, position: c }], density: 1000 });
    // Animated: the kinematic body follows the clip for a few frames; we record its last two transforms.
    let previous = poseAt(0), current = poseAt(0);
    for (let i = 1; i <= 5; i++) {
      previous = current; current = poseAt(i * dt);
      world.setPose(body, current.position, current.rotation);
    }
    const inherited = inheritVelocity(previous, current, dt, c);
    world.setBodyType(body, 'dynamic');
    world.setVelocity(body, inherited.linear, inherited.angular);
    world.step(dt);
    // A free sphere keeps ω; its centre moves at v + ω × r.
    const r = quatRotate(current.rotation, c);
    const expected: Vec3 = [v[0] + w[1] * r[2] - w[2] * r[1], v[1] + w[2] * r[0] - w[0] * r[2], v[2] + w[0] * r[1] - w[1] * r[0]];
    expect(rel(world.getLinearVelocity(body), expected)).toBeLessThan(0.01);
    expect(rel(world.getAngularVelocity(body), w)).toBeLessThan(0.01);
  });
});
