/**
 * The plots' time series (renderer/src/preview/series.ts, what previewApi.frames() returns) read from the
 * preview engine running the shipped humanoid with its motors on. The generator names each joint after
 * its child body, so "shin_l" is both a body and a joint: joint quantities must reach the joint (they used
 * to fall through to the body and come back as zeros).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { PreviewEngine } from '../../../shared/preview/engine';
import { recordedSeries, type RecordedSeries } from '../../../shared/preview/series';
import { quatMul, type Quat } from '../../../shared/math/quat';
import { BODY_STRIDE } from '../../../shared/runtime/trace';

const path = new URL('../../../assets/creatures/humanoid.rig.json', import.meta.url);
const rig: RigDocument = loadRig(JSON.parse(readFileSync(path, 'utf8')), { source: 'humanoid.rig.json' });
const FRAMES = 60;

function seriesOf(e: PreviewEngine): RecordedSeries {
  const { frames, aux } = e.slice(0, e.length);
  return recordedSeries({
    layout: e.recorder.layout, frameSize: e.frameSize, aux: e.aux, frames, auxData: aux, count: e.length,
    root: rig.bodies[0]!.name, massOf: () => null,
  });
}

/** Rotation angle (rad, in [0, π]) of joint frame B from joint frame A at recorded frame i, from the bodies'
 *  recorded rotations and the rig's joint frames — independent of the engine's joint readout. */
function jointFrameAngle(e: PreviewEngine, frames: Float64Array, i: number, joint: RigDocument['joints'][number]): number {
  const bodyRotation = (name: string): Quat => {
    const o = i * e.frameSize + 1 + e.recorder.layout.bodies.indexOf(name) * BODY_STRIDE + 3;
    return [frames[o]!, frames[o + 1]!, frames[o + 2]!, frames[o + 3]!];
  };
  const a = quatMul(bodyRotation(joint.bodyA), joint.frameA.rotation as Quat);
  const b = quatMul(bodyRotation(joint.bodyB), joint.frameB.rotation as Quat);
  const r = quatMul([-a[0], -a[1], -a[2], a[3]], b);
  return 2 * Math.atan2(Math.hypot(r[0], r[1], r[2]), Math.abs(r[3]));
}

describe('recorded series of the humanoid (motors on, rest-pose targets)', () => {
  let rec: RecordedSeries;
  let engine: PreviewEngine;
  let recorded: Float64Array;
  beforeAll(() => {
    const e = new PreviewEngine(rig);
    e.advance(FRAMES);
    rec = seriesOf(e);
    engine = e;
    recorded = Float64Array.from(e.slice(0, e.length).frames);
  });

  it('shin_l is a body and a joint; its torque series is the joint motor\'s, non-zero and within ±τmax', () => {
    expect(rig.bodies.some((b) => b.name === 'shin_l')).toBe(true);
    const joint = rig.joints.find((j) => j.name === 'shin_l')!;
    expect(joint.type).toBe('hinge');
    const tau = rec.series('shin_l', 'torque'), max = rec.series('shin_l', 'maxTorque');
    expect(tau.length).toBe(FRAMES + 1);
    // Holding the leg against gravity takes torque after the first step.
    expect(Math.max(...tau.map(Math.abs))).toBeGreaterThan(1);
    for (let i = 0; i < tau.length; i++) {
      expect(max[i]).toBe(joint.type === 'hinge' ? joint.motor.maxTorque : NaN);
      expect(Math.abs(tau[i]!)).toBeLessThanOrEqual(max[i]! * (1 + 1e-9));
    }
  });

  it('a hinge plots its angle, the rest target (0 rad) and the smallest difference between them', () => {
    const angle = rec.series('shin_l', 'angle'), target = rec.series('shin_l', 'target'), err = rec.series('shin_l', 'trackingError');
    for (let i = 0; i < angle.length; i++) {
      expect(Number.isFinite(angle[i])).toBe(true);
      expect(Math.abs(target[i]!)).toBeLessThan(1e-9);
      expect(err[i]).toBeCloseTo(target[i]! - angle[i]!, 12);
    }
    // The knee sags a little under the body's weight and the motor holds it near the target.
    expect(Math.max(...angle.map(Math.abs))).toBeGreaterThan(0);
    expect(Math.max(...angle.map(Math.abs))).toBeLessThan(0.2);
  });

  it('a ball joint plots its rotation angle magnitude, the target magnitude (rest: 0) and the angle between', () => {
    const angle = rec.series('thigh_l', 'angle'), target = rec.series('thigh_l', 'target'), err = rec.series('thigh_l', 'trackingError');
    const joint = rig.joints.find((j) => j.name === 'thigh_l')!;
    expect(joint.type).toBe('ball');
    for (let i = 0; i < angle.length; i++) {
      // The plotted magnitude is the rotation of the joint's frame B from its frame A, recomputed here
      // from the recorded body rotations.
      expect(Math.abs(angle[i]! - jointFrameAngle(engine, recorded, i, joint))).toBeLessThan(1e-9);
      expect(target[i]).toBeLessThan(1e-6);
      // With the identity target the angle between current and target rotations is the rotation angle.
      expect(err[i]).toBeCloseTo(angle[i]!, 6);
    }
    expect(Math.max(...angle)).toBeGreaterThan(0);
  });

  it('body quantities still reach the body of the same name; an unknown quantity is refused by name', () => {
    const y = rec.series('shin_l', 'p.y');
    expect(y[0]).toBeGreaterThan(0.1);
    expect(() => rec.series('shin_l', 'bogus' as never)).toThrow(/shin_l.*bogus/);
  });
});
