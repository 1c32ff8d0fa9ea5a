/**
 * The plots' time series (renderer/src/preview/series.ts, what previewApi.frames() returns) read from the
 * preview engine running the shipped humanoid with its motors on. The generator names each joint after
 * its child body, so "shin_l" is both a body and a joint: joint quantities must reach the joint (they used
 * to fall through to the body and come back as zeros).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { PreviewEngine } from '../../../renderer/src/preview/engine';
import { recordedSeries, type RecordedSeries } from '../../../renderer/src/preview/series';

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

describe('recorded series of the humanoid (motors on, rest-pose targets)', () => {
  let rec: RecordedSeries;
  beforeAll(() => {
    const e = new PreviewEngine(rig);
    e.advance(FRAMES);
    rec = seriesOf(e);
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
    for (let i = 0; i < angle.length; i++) {
      expect(angle[i]).toBeGreaterThanOrEqual(0);
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
