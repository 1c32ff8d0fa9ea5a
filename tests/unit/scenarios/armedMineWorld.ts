/**
 * The scenario harness: the shipped Armed Mine rig run headless through the runtime (createSimulation with
 * the cyclic-path gait), plus the measurements the scenarios make — all through the Simulation's and the
 * World's public read API.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadRig, type RigDocument } from '../../../shared/rig';
import { createSimulation, type Simulation } from '../../../shared/runtime/simulation';
import type { ControllerContext } from '../../../shared/runtime/controllers';
import { cyclicPathControllerFactory, type CyclicPathInstance } from '../../../shared/gait/register';
import { headingYaw, signedYawBetween, yawDirection } from '../../../shared/gait/steering';
import type { BodyHandle, JointHandle } from '../../../shared/physics/types';
import type { ReadonlyVec3, Vec3 } from '../../../shared/math/vec3';
import { forwardKinematics, type JointValue } from '../../../shared/ik/chain';
import { chainFromRig } from '../../../shared/gait/rigChain';
import { quatFromAxisAngle, quatMul, quatNormalize, type Quat } from '../../../shared/math/quat';
import { rng as random } from '../physics/helpers';

const DEG = Math.PI / 180;

export const RIG_PATH = fileURLToPath(new URL('../../../assets/creatures/armed-mine.rig.json', import.meta.url));
export const loadArmedMine = (): RigDocument => loadRig(JSON.parse(readFileSync(RIG_PATH, 'utf8')), { source: RIG_PATH });

/** The shipped mine with a tuning script's `--steering '{…}'` merged into every controller's steering
 *  parameters (no schema check: unknown keys are ignored), or as shipped without one. */
export function armedMineWithSteering(override: string | undefined): RigDocument {
  const rig = loadArmedMine();
  if (override === undefined) return rig;
  const extra = JSON.parse(override) as Record<string, unknown>;
  return { ...rig, controllers: rig.controllers.map((c) => ({ ...c, steering: { ...c.steering, ...extra } })) };
}

export interface Mine {
  sim: Simulation;
  body(name: string): BodyHandle;
  joint(name: string): JointHandle;
  /** The gait controller instance (path, phase, last frame). */
  gait: CyclicPathInstance;
}

export function mineSimulation(rig: RigDocument = loadArmedMine()): Mine {
  let ctx: ControllerContext | undefined;
  let gait: CyclicPathInstance | undefined;
  const sim = createSimulation(rig, {
    controllers: {
      cyclicPath: (config, c) => { ctx = c; gait = cyclicPathControllerFactory(config, c) as CyclicPathInstance; return gait; },
    },
  });
  if (!ctx || !gait) throw new Error('the Armed Mine rig has no cyclicPath controller');
  const c = ctx;
  return { sim, body: (n) => c.bodyHandle(n), joint: (n) => c.jointHandle(n), gait };
}

/** Horizontal distance (m) from the mine's body to a point. */
export function distanceTo(m: Mine, p: ReadonlyVec3): number {
  const b = m.sim.bodyPose('body').position;
  return Math.hypot(b[0] - p[0], b[2] - p[2]);
}

/** Signed angle (rad) from the body's heading to the direction from the body to the point. */
export function headingError(m: Mine, p: ReadonlyVec3): number {
  const pose = m.sim.bodyPose('body');
  return signedYawBetween(yawDirection(headingYaw(pose.rotation)), [p[0] - pose.position[0], 0, p[2] - pose.position[2]]);
}

/** Does the hand touch the floor (a ground contact on the hand body) after the last step? */
export function handOnFloor(m: Mine): boolean {
  const hand = m.body('hand');
  return m.sim.world.getContacts().some((c) => (c.bodyA === hand && c.bodyB === null) || (c.bodyB === hand && c.bodyA === null));
}

/** Per step: the largest joint anchor error (m) and whether any motor reported more torque than its limit. */
export function jointReport(m: Mine): { maxError: number; overLimit: string | null } {
  const f = m.sim.frame();
  let maxError = 0, overLimit: string | null = null;
  for (const [name, j] of Object.entries(f.joints)) {
    maxError = Math.max(maxError, j.error);
    if (j.torque > j.maxTorque * (1 + 1e-9) + 1e-9) overLimit = `${name}: ${j.torque} N·m > ${j.maxTorque} N·m`;
  }
  return { maxError, overLimit };
}

/** Deterministic pseudo-random numbers (mulberry32): the physics tests' generator. */
export { random };

/**
 * Blast the mine: body at a random orientation, the arm at random joint angles inside its limits, dropped
 * from just above the floor. Case 0 is the arm pinned under the body: the mine pitched forward onto its
 * face with the arm folded beneath it.
 */
export function blast(m: Mine, rig: RigDocument, seed: number): void {
  const rnd = random(seed);
  const c = rig.controllers[0]!;
  const chain = chainFromRig(rig, c);
  let rotation: Quat;
  let values: JointValue[];
  if (seed === 0) {
    rotation = quatFromAxisAngle([1, 0, 0], 110 * DEG);
    values = [quatFromAxisAngle([0, 1, 0], 0), 80 * DEG, 60 * DEG];
  } else {
    const axis: Vec3 = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5];
    rotation = quatNormalize(quatMul(quatFromAxisAngle([0, 1, 0], rnd() * 2 * Math.PI), quatFromAxisAngle(axis, rnd() * Math.PI)));
    const shoulder = rig.joints.find((j) => j.name === c.chain[0])!;
    const sw = shoulder.type === 'ball' && shoulder.swingLimit ? shoulder.swingLimit : [1, 1];
    const tw = shoulder.type === 'ball' && shoulder.twistLimit ? shoulder.twistLimit : [-0.5, 0.5];
    const S = quatMul(quatMul(quatFromAxisAngle([0, 1, 0], (rnd() - 0.5) * 2 * sw[0]! * 0.7), quatFromAxisAngle([0, 0, 1], (rnd() - 0.5) * 2 * sw[1]! * 0.7)),
      quatFromAxisAngle([1, 0, 0], tw[0]! + rnd() * (tw[1]! - tw[0]!)));
    values = [S, ...chain.joints.slice(1).map((j) => (j.type === 'hinge' && j.limit ? j.limit[0] + rnd() * (j.limit[1] - j.limit[0]) : 0))];
  }
  // Root pose → arm link poses by forward kinematics (the body frames are the chain's link frames).
  const root = { position: [0, 0, 0] as Vec3, rotation };
  const fk = forwardKinematics(chain, root, values);
  const names = [c.root, ...c.chain.map((jn) => rig.joints.find((j) => j.name === jn)!.bodyB)];
  const poses = [root, ...fk.links];
  // Lift everything so the lowest point (body shell, or an arm joint / the hand tip with its radius) clears the floor.
  const lowest = Math.min(-0.35, ...fk.links.map((l) => l.position[1] - 0.06), fk.effector[1] - 0.06);
  const lift = 0.02 - lowest;
  poses.forEach((p, k) => m.sim.world.setPose(m.body(names[k]!), [p.position[0], p.position[1] + lift, p.position[2]], p.rotation));
  m.sim.world.resetWarmStart();
}
