/**
 * Which recorded frames a rig edit leaves unchanged (issue 17: re-simulate from where it matters). The
 * preview records frame i = the state after i steps, inputs at frame f acting after frame f is recorded
 * (engine.ts). An edit of a parameter that no step before frame F + 1 reads, and that no record of frames
 * 0 … F holds, leaves frames 0 … F bit for bit: the host then keeps them and re-simulates from the last
 * snapshot at or before F (PreviewEngine.resumeFrom) instead of from frame 0.
 *
 * editFrontier(old, next, inputs) returns that F, the last unchanged frame:
 *   - Infinity: the two rigs simulate identically (no change the simulation reads);
 *   - −1: frame 0 may already differ — bodies, shapes, joints, limits, masses, solver settings, skeleton,
 *     a controller's structure, phase or default steering target, a motor's target source: a fresh run;
 *   - a motor's PD gains (stiffness, damping, errorReduction, torqueLimit, maxSpeed): the first frame f whose step
 *     f → f + 1 runs that joint's motor (powered: from frame 0 unless a limp input at frame 0 switches it
 *     off; motors are switched by the 'limp' inputs); maxTorque and mode are also written into every
 *     recorded frame in which the motor is on (the motor report), so frame 0 counts too;
 *     frictionTorque: the first frame whose step runs the motor limp (the report of a limp motor is its
 *     friction);
 *   - a controller's steering gain, maxAngle or pivotLead, in a rig with one controller: the first frame
 *     with a steering target (the rig's default or a 'target' key): without a target the skew is 0
 *     whatever they are (several limbs steer as a gait group: 0, as below);
 *   - any other controller parameter (control points, rate, pole, righting, enabled, …): 0 — frame 0 is
 *     recorded before the first step, the controllers act from the step 0 → 1.
 * The unit test tests/unit/preview/resume.test.ts checks each kind against a full re-simulation.
 */
import type { RigDocument, RigJoint, RigMotor } from '../rig';
import type { PreviewInput } from './input';

/** Steering parameters that act only while the controller has a target. */
const TARGET_GATED_STEERING = ['gain', 'maxAngle', 'pivotLead'] as const;
/** Motor fields read only by the steps that run the motor powered. */
const POWERED_GAINS = ['stiffness', 'damping', 'errorReduction', 'torqueLimit', 'maxSpeed'] as const;
/** Motor fields read by powered steps and written into the frames recorded while powered. */
const POWERED_REPORTED = ['maxTorque', 'mode'] as const;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function withoutKeys<T extends object>(o: T, keys: readonly string[]): Record<string, unknown> {
  const out = { ...o } as Record<string, unknown>;
  for (const k of keys) delete out[k];
  return out;
}

/** Changed keys between two plain objects (shallow). */
const changedKeys = (a: object, b: object): string[] => {
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  return [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter((k) => !same(ra[k], rb[k]));
};

/**
 * Per joint, the frames f at which its motor runs powered during the step f → f + 1 (on), read from the
 * 'limp' inputs: returns the first powered and the first limp step frame (Infinity if never).
 */
function motorSchedule(joint: RigJoint & { motor: RigMotor }, inputs: readonly PreviewInput[]): { firstOn: number; firstOff: number } {
  // A motor of mode 'off' never runs powered (Simulation: motorDesc gives mode 'off').
  if (joint.motor.mode === 'off') return { firstOn: Infinity, firstOff: 0 };
  const limps = inputs.filter((i): i is Extract<PreviewInput, { kind: 'limp' }> => i.kind === 'limp' && (i.joints === 'all' || i.joints.includes(joint.name)))
    .sort((a, b) => a.frame - b.frame);
  let on = true, firstOn = Infinity, firstOff = Infinity;
  // Candidate frames: 0 and every frame a limp input switches this joint (state after that frame's inputs).
  const frames = [0, ...new Set(limps.map((l) => l.frame))].filter((f) => f >= 0).sort((a, b) => a - b);
  let k = 0;
  for (const f of frames) {
    while (k < limps.length && limps[k]!.frame <= f) on = !limps[k++]!.limp;
    if (on) firstOn = Math.min(firstOn, f); else firstOff = Math.min(firstOff, f);
  }
  return { firstOn, firstOff };
}

/** The first frame whose step runs with a steering target (default target, or a 'target' key). */
function firstTargetFrame(rig: RigDocument, inputs: readonly PreviewInput[]): number {
  const first = rig.controllers.find((c) => c.type === 'cyclicPath');
  if (first?.steering.target) {
    // The default holds until the first key; a key at frame 0 with null clears it before the first step.
    const keys0 = inputs.filter((i) => i.kind === 'target' && i.frame === 0);
    const last0 = keys0[keys0.length - 1] as Extract<PreviewInput, { kind: 'target' }> | undefined;
    if (!last0 || last0.target !== null) return 0;
  }
  let best = Infinity;
  for (const i of inputs) if (i.kind === 'target' && i.target !== null && i.frame < best) best = i.frame;
  return best;
}

/** The last frame a change from `old` to `next` leaves unchanged (see the file comment): −1 … Infinity. */
export function editFrontier(old: RigDocument, next: RigDocument, inputs: readonly PreviewInput[]): number {
  if (old === next) return Infinity;
  // Everything but the motors and the controllers must be the same (any other field can move frame 1).
  const rest = (r: RigDocument) => ({ ...r, joints: r.joints.map((j) => withoutKeys(j, ['motor'])), controllers: null });
  if (!same(rest(old), rest(next))) return -1;
  if (old.controllers.length !== next.controllers.length) return -1;
  let frontier = Infinity;

  for (let i = 0; i < old.joints.length; i++) {
    const a = old.joints[i]!, b = next.joints[i]!;
    if (!('motor' in a) || !('motor' in b)) continue; // fixed joints: identical (compared above)
    const keys = changedKeys(a.motor, b.motor);
    if (keys.length === 0) continue;
    if (keys.some((k) => !(POWERED_GAINS as readonly string[]).includes(k) && !(POWERED_REPORTED as readonly string[]).includes(k) && k !== 'frictionTorque')) return -1;
    // Mode changes move the schedule itself: read it with the old mode and the new one, take the earlier.
    const sa = motorSchedule(a, inputs), sb = motorSchedule(b, inputs);
    const firstOn = Math.min(sa.firstOn, sb.firstOn), firstOff = Math.min(sa.firstOff, sb.firstOff);
    for (const k of keys) {
      // A limp motor's report is its friction: frames recorded limp hold it (frame 0 only for mode 'off').
      if (k === 'frictionTorque') frontier = Math.min(frontier, a.motor.mode === 'off' || b.motor.mode === 'off' ? -1 : firstOff);
      else if ((POWERED_REPORTED as readonly string[]).includes(k)) {
        // Frame 0 is recorded powered unless the motor's mode is 'off'; later frames after a powered step.
        frontier = Math.min(frontier, a.motor.mode !== 'off' || b.motor.mode !== 'off' ? -1 : firstOn);
      } else frontier = Math.min(frontier, firstOn);
    }
  }

  const targetFrame = Math.min(firstTargetFrame(old, inputs), firstTargetFrame(next, inputs));
  for (let i = 0; i < old.controllers.length; i++) {
    const a = old.controllers[i]!, b = next.controllers[i]!;
    if (same(a, b)) continue;
    const structure = (c: typeof a) => ({ name: c.name, type: c.type, root: c.root, chain: c.chain, effector: c.effector, phaseOffset: c.phaseOffset, target: c.steering.target });
    if (!same(structure(a), structure(b))) return -1;
    const steeringKeys = changedKeys(a.steering, b.steering);
    const others = changedKeys({ ...a, steering: null }, { ...b, steering: null });
    // Limbs sharing a root steer as a gait group (shared/gait/gaitGroup.ts): only a lone controller's
    // steering is known to be idle without a target.
    const alone = old.controllers.length === 1;
    if (!alone || others.length > 0 || steeringKeys.some((k) => !(TARGET_GATED_STEERING as readonly string[]).includes(k))) frontier = Math.min(frontier, 0);
    else frontier = Math.min(frontier, targetFrame);
  }
  return frontier;
}
