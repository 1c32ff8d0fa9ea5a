/**
 * A joint type is one unit (issue 14 item 3): the World, the JointStore's stages and both position
 * corrections dispatch through the registry (shared/physics/joints/registry.ts), so a type registered from
 * outside — here a copy of the fixed joint under another name — works with no other file touched, and the
 * solver keeps no module-level scratch state.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixedJoint } from '../../../shared/physics/joints/fixedJoint';
import type { JointTypeDef } from '../../../shared/physics/joints/jointType';
import { JOINT_TYPE_NAMES, JOINT_TYPES, registerJointType } from '../../../shared/physics/joints/registry';
import type { BodyHandle, JointDesc, JointHandle, WorldSettings } from '../../../shared/physics/types';
import { World } from '../../../shared/physics/world';

const weld = { ...fixedJoint, name: 'weld', code: JOINT_TYPES.length } as unknown as JointTypeDef;
registerJointType(weld);

/** A three-link chain hanging from a static anchor, its middle joint of `middle` type; digest of 200 steps. */
function chainDigest(middle: string, settings: Partial<WorldSettings>): { states: number[]; rows: number; error: number; angle: number | number[] } {
  const w = new World({ ...settings, groundHeight: null });
  const anchor = w.addBody({ type: 'static', position: [0, 2, 0], shapes: [{ type: 'sphere', radius: 0.05 }] });
  const links: BodyHandle[] = [];
  let prev = anchor;
  const joints: JointHandle[] = [];
  for (let i = 0; i < 3; i++) {
    const b = w.addBody({ type: 'dynamic', mass: 1, position: [0.5 * (i + 1), 2, 0], shapes: [{ type: 'box', halfExtents: [0.25, 0.05, 0.05] }], angularVelocity: [0.3, 0.2 * i, 0.1] });
    const type = i === 1 ? middle : 'ball';
    joints.push(w.addJoint({ type, bodyA: prev, bodyB: b, frameA: { position: [i === 0 ? 0 : 0.25, 0, 0] }, frameB: { position: [-0.25, 0, 0] } } as unknown as JointDesc));
    links.push(b);
    prev = b;
  }
  const states: number[] = [];
  for (let s = 0; s < 200; s++) {
    w.step(1 / 60);
    for (const b of links) states.push(...w.getCenterOfMass(b), ...w.getRotation(b), ...w.getAngularVelocity(b));
  }
  return { states, rows: w.getStats().rows, error: w.getJointError(joints[1]!), angle: w.getJointAngle(joints[1]!) };
}

describe('joint types: one table', () => {
  it('holds the seven built-in types at their codes, in order', () => {
    expect(JOINT_TYPE_NAMES.slice(0, 7)).toEqual(['ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar']);
    JOINT_TYPES.forEach((def, code) => expect(def.code).toBe(code));
    expect(JOINT_TYPES.map((d) => d.motorRows)).toEqual([3, 1, 0, 1, 1, 1, 1, 0]);
  });

  it('refuses a type it does not know, naming the joint and the known types', () => {
    const w = new World();
    const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    const b = w.addBody({ type: 'dynamic', mass: 1, position: [1, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    expect(() => w.addJoint({ name: 'elbow', type: 'helical', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] } } as unknown as JointDesc))
      .toThrow("joint 'elbow': type must be 'ball', 'hinge', 'fixed', 'prismatic', 'screw', 'cylindrical', 'planar' or 'weld', got 'helical'");
  });

  it('refuses a registration at a code that is taken or under a name that is', () => {
    expect(() => registerJointType({ ...fixedJoint, name: 'weld2', code: 1 } as unknown as JointTypeDef)).toThrow('next free code is 8');
    expect(() => registerJointType({ ...fixedJoint, name: 'hinge', code: JOINT_TYPES.length } as unknown as JointTypeDef)).toThrow("'hinge' is already registered");
  });

  it('a type registered from outside runs through world, store and both corrections bit for bit like the one it copies', () => {
    for (const jointCorrection of ['projection', 'shake'] as const) {
      for (const substeps of [1, 3]) {
        const fixed = chainDigest('fixed', { jointCorrection, substeps });
        const copy = chainDigest('weld', { jointCorrection, substeps });
        expect(copy.rows).toBe(fixed.rows);
        expect(copy.states).toEqual(fixed.states);
        expect(copy.error).toBe(fixed.error);
        expect(copy.angle).toEqual(fixed.angle);
        // The welded pair really is welded: the middle joint's anchors stay together (< 1 mm).
        expect(fixed.error).toBeLessThan(1e-3);
      }
    }
  });

  it('its motor rules come from the type: a weld has no axis to drive', () => {
    const w = new World();
    const a = w.addBody({ type: 'static', position: [0, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    const b = w.addBody({ type: 'dynamic', mass: 1, position: [1, 0, 0], shapes: [{ type: 'sphere', radius: 0.1 }] });
    expect(() => w.addJoint({ name: 'w', type: 'weld', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] }, motor: { mode: 'position', maxTorque: 1 } } as unknown as JointDesc))
      .toThrow("joint 'w': a weld joint has no free axis to drive (motor.mode must be 'off')");
    const j = w.addJoint({ name: 'h', type: 'hinge', bodyA: a, bodyB: b, frameA: { position: [0, 0, 0] }, frameB: { position: [0, 0, 0] }, motor: { mode: 'position', maxTorque: 1 } });
    expect(() => w.setMotorTarget(j, [0, 0, 0, 1])).toThrow("joint 'h': a hinge joint's motor target is a number");
  });

  it('the joint solver keeps no state at module level (every scratch vector lives in the step context)', () => {
    const dir = fileURLToPath(new URL('../../../shared/physics/joints/', import.meta.url));
    const offenders: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(dir + f, 'utf8');
      for (const line of src.split('\n')) {
        // A top-level typed array (the old qFA / tv / motorIn / lv … scratch) or a mutable record of numbers.
        if (/^(export )?(const|let|var) \w+\s*(:[^=]+)?=\s*new (Float64|Float32|Int32|Uint8|Uint32)Array/.test(line)) offenders.push(`${f}: ${line.trim()}`);
        if (/^(export )?(let|var) /.test(line)) offenders.push(`${f}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
