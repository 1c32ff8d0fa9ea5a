/**
 * Screw, cylindrical and planar joints in the rig format and the runtime (issue 12 item 2): validation names
 * the field and the reason; a rig with them runs through createSimulation on the rigid World with the
 * motors and limits of its file.
 */
import { describe, expect, it } from 'vitest';
import { rescaleRig } from '../../../shared/authoring/creatureScale';
import { formatProblem } from '../../../shared/problems';
import { validateRig } from '../../../shared/rig';
import { createSimulation } from '../../../shared/runtime';
import { FRAME_X_UP, FRAME_X_Z, motorOff, pairRig } from '../physics/coupledRigs';

function problems(doc: unknown): string {
  const r = validateRig(doc);
  return r.ok ? '' : r.problems.map(formatProblem).join('\n');
}
const json = (o: Parameters<typeof pairRig>[0]) => JSON.parse(JSON.stringify(pairRig(o))) as { joints: Record<string, unknown>[] };

describe('screw, cylindrical and planar joints in the rig format', () => {
  it('accepts the three types and round-trips their fields', () => {
    for (const joint of [
      { type: 'screw' as const, pitch: -0.01, limit: [-1, 2] },
      { type: 'cylindrical' as const, limit: [-1, 1], slideLimit: [-0.1, 0.3] },
      { type: 'planar' as const, limit: null, slideLimitY: [-0.5, 0.5], slideLimitZ: [0, 0.2] },
    ]) {
      const doc = json({ frame: FRAME_X_UP, joint });
      expect(problems(doc), joint.type).toBe('');
      expect(doc.joints[0]).toMatchObject(joint);
    }
  });

  it('refuses a bad pitch, an inverted slide limit, a planar velocity target and screw frames that disagree at rest, naming the field', () => {
    const zero = json({ frame: FRAME_X_UP, joint: { type: 'screw' } }); zero.joints[0]!.pitch = 0;
    expect(problems(zero)).toContain('joints[0].pitch: must not be 0 (a screw of pitch 0 is a hinge)');
    const big = json({ frame: FRAME_X_UP, joint: { type: 'screw' } }); big.joints[0]!.pitch = 3;
    expect(problems(big)).toContain('joints[0].pitch');
    const inverted = json({ frame: FRAME_X_UP, joint: { type: 'cylindrical' } }); inverted.joints[0]!.slideLimit = [0.3, -0.1];
    expect(problems(inverted)).toContain('joints[0].slideLimit: min must be ≤ max, got [0.3, -0.1] m');
    const moving = json({ frame: FRAME_X_UP, joint: { type: 'planar' } });
    moving.joints[0]!.slideMotor = { ...motorOff, mode: 'velocity', maxTorque: 5, target: { source: 'rest', velocity: 1 } };
    expect(problems(moving)).toContain('joints[0].slideMotor.target.velocity: must be 0 on a planar joint');
    const turned = json({ frame: FRAME_X_UP, joint: { type: 'screw' } });
    // frameB turned 0.5 rad about frame X (world Y) from frameA: X_UP · rot_x(0.5).
    const c = Math.cos(0.25), s = Math.sin(0.25), a = FRAME_X_UP;
    turned.joints[0]!.frameB = { position: [0, 0, 0], rotation: [a[3] * s + a[0] * c, a[1] * c + a[2] * s, a[2] * c - a[1] * s, a[3] * c - a[0] * s] };
    expect(problems(turned)).toContain('joints[0].frameB.rotation: a screw joint\'s frames must agree at the rest pose');
  });

  it('runs through createSimulation: a screw with a pd motor turns to its target and the offset follows', () => {
    const pitch = 0.03;
    const sim = createSimulation(pairRig({
      frame: FRAME_X_UP, gravity: [0, 0, 0],
      joint: { type: 'screw', pitch, motor: { ...motorOff, mode: 'pd', maxTorque: 50, stiffness: 50, damping: 10, target: { source: 'animation', clip: 'turn' } } },
    }));
    sim.setMotorTargets({ pair: 0.8 });
    for (let i = 0; i < 300; i++) sim.step();
    const j = sim.jointHandle('pair');
    expect(Math.abs((sim.world.getJointAngle(j) as number) - 0.8)).toBeLessThan(1e-3);
    expect(Math.abs(sim.world.getJointSlide!(j)[0]! - pitch * 0.8)).toBeLessThan(1e-6);
  });

  it('runs through createSimulation: a planar joint\'s slide motor holds the part against gravity, limp lets it fall to its limit', () => {
    const sim = createSimulation(pairRig({
      frame: FRAME_X_Z, joint: { type: 'planar', slideLimitY: [-0.2, 0.2], slideMotor: { ...motorOff, mode: 'position', maxTorque: 100 } },
    }));
    const j = sim.jointHandle('pair');
    for (let i = 0; i < 120; i++) sim.step();
    expect(Math.abs(sim.world.getJointSlide!(j)[0]!)).toBeLessThan(1e-3);
    sim.setMotorsEnabled(false);
    for (let i = 0; i < 120; i++) sim.step();
    expect(Math.abs(sim.world.getJointSlide!(j)[0]! - -0.2)).toBeLessThan(2e-3);
  });

  it('rescaling a rig scales the pitch and the slide limits as lengths and the slide motor as a force', () => {
    const screw = rescaleRig(pairRig({ frame: FRAME_X_UP, joint: { type: 'screw', pitch: 0.02, limit: [-1, 1] } }), 2).joints[0]!;
    expect(screw).toMatchObject({ type: 'screw', pitch: 0.04, limit: [-1, 1] });
    const slideMotor = { ...motorOff, mode: 'pd', maxTorque: 10, stiffness: 100, damping: 5 };
    const planar = rescaleRig(pairRig({ frame: FRAME_X_Z, joint: { type: 'planar', slideLimitY: [-0.1, 0.2], slideLimitZ: null, slideMotor } }), 2).joints[0]!;
    expect(planar).toMatchObject({ slideLimitY: [-0.2, 0.4], slideLimitZ: null, slideMotor: { maxTorque: 80, stiffness: 400, damping: 20 } });
  });
});
