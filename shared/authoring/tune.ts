/**
 * Gains from a target (issue 15 item 2): the user asks for a settle time (s, 2 % band) and an overshoot (%);
 * this computes each motor's parameters and verifies them by simulating the joint's step response.
 *
 * Per motorised joint (hinge or ball, motor mode 'pd' or 'position'):
 *  - effective inertia I about the joint's axis: the whole subtree the joint carries (bodyB and every body
 *    jointed below it), each body's inertia about the anchor (pdGains.ts inertiaAboutPoint, parallel axis),
 *    summed along the axis — the parent is held. Hinge: frame X; ball: the swing axis (frame Y or Z) with
 *    the larger inertia, the slower one, which is also the axis the step response is tested on.
 *  - PD (τ = kp(θd−θ) − kv·θ̇): damping ratio ζ from the overshoot, ζ = −ln(p)/√(π² + ln²p) (p = 0 → ζ = 1);
 *    the natural frequency from the exact 2 %-settle time of the second-order step response (scaled: the
 *    settle time at ωn = 1, divided by the request); kp, kv from pdGains.ts pdGainsFromFrequency.
 *    The spring the joint feels under gravity is kp + k_g (k_g = m·g·r⊥, the carried chain's linearised
 *    gravity stiffness): kp = I·ω² − k_g. A joint between the trunk and a sole of a standing creature
 *    (supportLoad) is tuned instead for what it carries in stance — the weight above it as an inverted
 *    pendulum, inertia m·L², kp = m·L²·ω² + m·g·L — when that inertia is the larger, so the creature still
 *    stands (its hanging step test then runs faster than asked, and `why` says so if it misses).
 *  - position (bias r·ε/h per substep h = dt/substeps, motor.ts): a first-order decay ε ← (1−r)·ε per
 *    substep, so r = 1 − 0.02^(h/T) settles into the 2 % band at T; it never overshoots (the requested
 *    overshoot does not apply and is reported as such).
 *  - τmax = margin (default 2.5, generate.ts's torqueScale) × the static gravity torque of the chain it
 *    carries at its worst lever (m·|g|·|com − anchor|, as generate.ts step 5 computes it) — for a joint
 *    between the trunk and a sole of a standing creature the weight it holds up instead when that is more
 *    (generate.ts's support torque, supportLoad below) — and at least the
 *    PD spring's torque at the test step (kp·step) so a joint that carries no gravity load can still move.
 *
 * Verification: a copy of the rig with only the joint's parent (made static) and the subtree, no ground and
 * no controllers, gravity as in the rig, run twice in lockstep from the rest pose — once holding the rest
 * target, once with the target stepped by `step` rad about the axis. The difference between the two (joint
 * frame B relative to frame A) is the step response with the gravity sag removed; settle time = the time it
 * last leaves the 2 % band around the step, overshoot = the peak past the step (%). A joint is ok when the
 * settle time is within 20 % of the request (and, for PD, the overshoot within max(2, 20 % of it) points
 * above the request); otherwise `why` says what held it back (saturation at τmax, the limit, the flexing
 * chain below, or a settle time of only a few steps).
 */
import { quatConj, quatFromAxisAngle, quatMul, quatRotate, quatToRotationVector, type Quat } from '../math/quat';
import { dot, length, normalize, scale, sub, type Vec3 } from '../math/vec3';
import { bodyRestWorld, boneRestWorld } from '../rig/restPose';
import type { RigDocument, RigJoint, RigMotor } from '../rig/schema';
import { createSimulation } from '../runtime/simulation';
import { bodyMassProperties } from '../export/rig';
import { SUPPORT_MARGIN } from './generate';
import { inertiaAboutPoint, pdGainsFromFrequency } from './pdGains';

export interface TuneOptions {
  /** Requested 2 %-settle time (s), > 0. */
  settle: number;
  /** Requested overshoot (%), 0 ≤ p < 100; PD motors only. Default 5. */
  overshoot?: number;
  /** Joints to tune (default: every hinge / ball joint whose motor is 'pd' or 'position'). */
  joints?: readonly string[];
  /** Factor on the static gravity torque for τmax (default 2.5). */
  margin?: number;
  /** The verification step (rad, default 0.1). */
  step?: number;
  /** Skip the simulated verification (achieved = null). */
  verify?: boolean;
}

export interface JointTune {
  joint: string;
  type: 'hinge' | 'ball';
  mode: 'pd' | 'position';
  /** Frame-B axis tuned and tested. */
  axis: Vec3;
  /** Effective inertia of the carried chain about that axis (kg·m²). */
  inertia: number;
  /** Static gravity torque (N·m): of the carried chain at its worst lever, or, for a joint between the trunk
   *  and a sole of a standing creature, of the weight it holds up (generate.ts's support torque). */
  staticTorque: number;
  requested: { settle: number; overshoot: number };
  params: { stiffness: number; damping: number; errorReduction: number; maxTorque: number };
  /** Simulated step response; settle null when it never stayed in the 2 % band. */
  achieved: {
    settle: number | null; overshoot: number;
    /** Fraction of the steps the motor ended at τmax. */
    saturated: number;
    /** Final displacement / step (< 1: gravity holds part of it back, ≈ 0: the joint did not follow). */
    final: number;
  } | null;
  ok: boolean;
  why: string | null;
  /** PD gains set for the weight the joint holds up in stance (a joint between the trunk and a sole). */
  stance: boolean;
}

/** The joints tune handles: hinge and ball (their motor mode 'pd' or 'position'). */
export type TunableJoint = Extract<RigJoint, { type: 'hinge' | 'ball' }>;

export interface TuneResult { rig: RigDocument; joints: JointTune[] }

const BAND = 0.02;
const round9 = (x: number) => Number(x.toPrecision(9));

/** Damping ratio giving `overshootPercent` % overshoot in a second-order step response (0 → 1). */
export function dampingRatioForOvershoot(overshootPercent: number): number {
  if (!(overshootPercent >= 0 && overshootPercent < 100)) throw new Error(`overshoot must be in [0, 100) %, got ${overshootPercent}`);
  if (overshootPercent === 0) return 1;
  const L = Math.log(overshootPercent / 100);
  return -L / Math.sqrt(Math.PI * Math.PI + L * L);
}

/** 2 %-settle time of the unit second-order step response at ωn = 1 (s·rad/s), 0 < ζ ≤ 1, sampled finely. */
export function normalizedSettleTime(zeta: number): number {
  if (!(zeta > 0 && zeta <= 1)) throw new Error(`damping ratio must be in (0, 1], got ${zeta}`);
  const y = (t: number) => {
    if (zeta >= 1 - 1e-9) return 1 - Math.exp(-t) * (1 + t);
    const wd = Math.sqrt(1 - zeta * zeta);
    return 1 - Math.exp(-zeta * t) * (Math.cos(wd * t) + (zeta / wd) * Math.sin(wd * t));
  };
  const end = 60 / zeta, h = 1e-3;
  let last = 0;
  for (let t = 0; t <= end; t += h) if (Math.abs(y(t) - 1) > BAND) last = t;
  return last + h;
}

/** Bodies carried by a joint: its bodyB and everything jointed below it. */
function subtreeOf(rig: RigDocument, joint: RigJoint): string[] {
  const out: string[] = [], seen = new Set([joint.bodyA]);
  const visit = (b: string) => {
    if (seen.has(b)) return;
    seen.add(b); out.push(b);
    for (const j of rig.joints) if (j.bodyA === b) visit(j.bodyB);
  };
  visit(joint.bodyB);
  return out;
}

function along(I: readonly number[], n: Vec3): number {
  let s = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s += n[i]! * I[3 * i + j]! * n[j]!;
  return s;
}

/** Tune the motors of `rig`'s joints for a settle time and overshoot; returns the tuned copy and a report. */
export function tuneRig(rig: RigDocument, options: TuneOptions): TuneResult {
  const settle = options.settle, overshoot = options.overshoot ?? 5, margin = options.margin ?? 2.5, stepAngle = options.step ?? 0.1;
  if (!(settle > 0 && Number.isFinite(settle))) throw new Error(`settle time must be a positive number of seconds, got ${settle}`);
  const zeta = dampingRatioForOvershoot(overshoot);
  if (!(margin > 0 && Number.isFinite(margin))) throw new Error(`margin must be > 0, got ${margin}`);
  if (!(stepAngle > 0 && stepAngle < 1)) throw new Error(`step must be in (0, 1) rad, got ${stepAngle}`);
  const tunable = (j: RigJoint): j is TunableJoint => (j.type === 'hinge' || j.type === 'ball') && (j.motor.mode === 'pd' || j.motor.mode === 'position');
  let selected: TunableJoint[];
  if (options.joints) {
    selected = options.joints.map((name) => {
      const j = rig.joints.find((x) => x.name === name);
      if (!j) throw new Error(`rig "${rig.name}" has no joint "${name}" (joints: ${rig.joints.map((x) => x.name).join(', ')})`);
      if (!tunable(j)) throw new Error(`joint "${name}" is a ${j.type} joint${j.type === 'fixed' ? '' : ` with motor mode "${j.motor.mode}"`}: only hinge and ball joints with a 'pd' or 'position' motor can be tuned`);
      return j;
    });
  } else selected = rig.joints.filter(tunable);

  const rest = bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
  const g = rig.simulation.gravity as Vec3, gNorm = length(g);
  const h = rig.simulation.dt / rig.simulation.substeps;
  const wnUnit = normalizedSettleTime(zeta);
  const support = supportLoad(rig, rest, gNorm);
  const results: JointTune[] = [];
  const motors = new Map<string, RigMotor>();

  for (const joint of selected) {
    const tb = rest.get(joint.bodyB);
    if (!tb) throw new Error(`joint "${joint.name}": body "${joint.bodyB}" has no rest pose`);
    const anchor = (() => { const p = quatRotate(tb.rotation, joint.frameB.position as Vec3); return [tb.position[0] + p[0], tb.position[1] + p[1], tb.position[2] + p[2]] as Vec3; })();
    const frameRot = quatMul(tb.rotation, joint.frameB.rotation as Quat);
    const carried = subtreeOf(rig, joint);
    let mass = 0, com: Vec3 = [0, 0, 0];
    const tensors: number[][] = [];
    for (const name of carried) {
      const body = rig.bodies.find((b) => b.name === name)!, t = rest.get(name);
      if (!t || body.type !== 'dynamic') continue;
      const mp = inertiaAboutPoint(body, t.rotation, t.position, anchor);
      tensors.push(mp.tensor);
      const c = bodyCentroid(body, t.rotation, t.position);
      com = [com[0] + mp.mass * c[0], com[1] + mp.mass * c[1], com[2] + mp.mass * c[2]];
      mass += mp.mass;
    }
    if (!(mass > 0)) throw new Error(`joint "${joint.name}" carries no dynamic body`);
    com = scale(com, 1 / mass);
    const localAxes: Vec3[] = joint.type === 'hinge' ? [[1, 0, 0]] : [[0, 1, 0], [0, 0, 1]];
    let axis = localAxes[0]!, inertia = 0, gravityStiffness = 0;
    for (const a of localAxes) {
      const n = normalize(quatRotate(frameRot, a));
      const I = tensors.reduce((s, T) => s + along(T, n), 0);
      if (I > inertia) {
        inertia = I; axis = a;
        // Linearised gravity stiffness about n: k_g = m·g·r⊥ (r = com − anchor, its part across n); > 0 when
        // the chain hangs (gravity restores it), < 0 when it stands above the joint (gravity topples it).
        const r = sub(com, anchor), rPerp = sub(r, scale(n, dot(n, r)));
        gravityStiffness = mass * dot(g, rPerp);
      }
    }
    const staticTorque = Math.max(mass * gNorm * length(sub(com, anchor)), support.torque(joint, carried, anchor));
    let stiffness = 0, damping = 0, errorReduction = joint.motor.errorReduction, stanceTuned = false;
    const stance = support.stance(carried, anchor);
    if (joint.motor.mode === 'pd') {
      const f = wnUnit / settle / (2 * Math.PI);
      const gains = pdGainsFromFrequency(f, zeta, inertia);
      // The spring the joint feels is kp + k_g: take gravity's share out (never below a tenth of I·ω²).
      stiffness = Math.max(gains.stiffness - gravityStiffness, 0.1 * gains.stiffness);
      damping = gains.damping;
      if (stance.inertia > inertia) {
        // A joint that holds the creature up is tuned for its load in stance — the weight above it as an
        // inverted pendulum — not for the limb below it hanging (its hanging step test then runs faster).
        const st = pdGainsFromFrequency(f, zeta, stance.inertia);
        stiffness = Math.max(stiffness, st.stiffness + stance.topple);
        damping = Math.max(damping, st.damping);
        stanceTuned = true;
      }
      stiffness = round9(stiffness); damping = round9(damping);
    } else {
      errorReduction = round9(Math.min(1, 1 - Math.pow(BAND, h / settle)));
    }
    const maxTorque = round9(Math.max(margin * staticTorque, stiffness * stepAngle));
    const motor: RigMotor = { ...joint.motor, maxTorque, errorReduction, stiffness: joint.motor.mode === 'pd' ? stiffness : joint.motor.stiffness, damping: joint.motor.mode === 'pd' ? damping : joint.motor.damping };
    motors.set(joint.name, motor);
    results.push({
      joint: joint.name, type: joint.type as 'hinge' | 'ball', mode: joint.motor.mode as 'pd' | 'position', axis, inertia: round9(inertia), staticTorque: round9(staticTorque),
      requested: { settle, overshoot: joint.motor.mode === 'pd' ? overshoot : 0 },
      params: { stiffness: motor.stiffness, damping: motor.damping, errorReduction, maxTorque },
      achieved: null, ok: false, why: null, stance: stanceTuned,
    });
  }

  const tuned: RigDocument = { ...rig, joints: rig.joints.map((j) => (motors.has(j.name) ? { ...j, motor: motors.get(j.name)! } : j)) };
  if (options.verify !== false) {
    for (const r of results) {
      const joint = tuned.joints.find((j) => j.name === r.joint)!;
      r.achieved = stepResponse(tuned, joint, r.axis, stepAngle, settle);
      const miss = r.achieved.settle === null ? Infinity : Math.abs(r.achieved.settle - settle) / settle;
      const overshootOk = r.mode !== 'pd' || r.achieved.overshoot <= r.requested.overshoot + Math.max(2, 0.2 * r.requested.overshoot);
      r.ok = miss <= 0.2 && overshootOk;
      if (!r.ok) r.why = explain(r, tuned, joint, h, overshootOk);
    }
  }
  return { rig: tuned, joints: results };
}

/**
 * The weight a joint holds up when the creature stands: for a joint whose carried chain holds a sole (a leaf
 * body, its centre within 4 % of the creature's height of the lowest leaf, on a rig with a ground) while
 * nothing static or kinematic is above it, generate.ts's support torque — SUPPORT_MARGIN × its share of the
 * mass above (split between the soles) × g × half the lever to that mass's centre (a 30° lean). 0 otherwise.
 */
function supportLoad(rig: RigDocument, rest: ReadonlyMap<string, { position: Vec3; rotation: Quat }>, gNorm: number) {
  const dyn = rig.bodies.filter((b) => b.type === 'dynamic' && rest.has(b.name));
  const info = new Map(dyn.map((b) => [b.name, { mass: bodyMassProperties(b).mass, com: bodyCentroid(b, rest.get(b.name)!.rotation, rest.get(b.name)!.position) }]));
  const leaves = dyn.filter((b) => !rig.joints.some((j) => j.bodyA === b.name)).map((b) => b.name);
  const ys = [...info.values()].map((v) => v.com[1]);
  const height = ys.length > 0 ? Math.max(...ys) - Math.min(...ys) : 0;
  const lowest = Math.min(...leaves.map((b) => info.get(b)!.com[1]));
  const soles = rig.simulation.ground && !rig.bodies.some((b) => b.type !== 'dynamic')
    ? leaves.filter((b) => info.get(b)!.com[1] - lowest <= 0.04 * height) : [];
  return {
    soles,
    torque(joint: RigJoint, carried: readonly string[], anchor: Vec3): number {
      if (soles.length === 0 || !carried.some((b) => soles.includes(b))) return 0;
      let m = 0, c: Vec3 = [0, 0, 0];
      for (const [name, v] of info) if (!carried.includes(name)) { m += v.mass; c = [c[0] + v.mass * v.com[0], c[1] + v.mass * v.com[1], c[2] + v.mass * v.com[2]]; }
      if (!(m > 0)) return 0;
      return SUPPORT_MARGIN * (m / soles.length) * gNorm * 0.5 * length(sub(scale(c, 1 / m), anchor));
    },
    /** In stance, the weight a support joint holds up as an inverted pendulum on it: its share m (split
     *  between the soles) at the lever L to its centre — inertia m·L² (kg·m²), toppling stiffness m·g·L
     *  (N·m/rad). Zeros for a joint that holds nothing up. */
    stance(carried: readonly string[], anchor: Vec3): { inertia: number; topple: number } {
      if (soles.length === 0 || !carried.some((b) => soles.includes(b))) return { inertia: 0, topple: 0 };
      let m = 0, c: Vec3 = [0, 0, 0];
      for (const [name, v] of info) if (!carried.includes(name)) { m += v.mass; c = [c[0] + v.mass * v.com[0], c[1] + v.mass * v.com[1], c[2] + v.mass * v.com[2]]; }
      if (!(m > 0)) return { inertia: 0, topple: 0 };
      const share = m / soles.length, L = length(sub(scale(c, 1 / m), anchor));
      return { inertia: share * L * L, topple: share * gNorm * L };
    },
  };
}

function bodyCentroid(body: RigDocument['bodies'][number], rotation: Quat, position: Vec3): Vec3 {
  const c = quatRotate(rotation, bodyMassProperties(body).centroid as Vec3);
  return [position[0] + c[0], position[1] + c[1], position[2] + c[2]];
}

/** Simulate the joint's step response (see the file comment). */
function stepResponse(rig: RigDocument, joint: RigJoint, axis: Vec3, stepAngle: number, settle: number): NonNullable<JointTune['achieved']> {
  const keep = new Set([joint.bodyA, ...subtreeOf(rig, joint)]);
  const copy: RigDocument = {
    ...rig,
    bodies: rig.bodies.filter((b) => keep.has(b.name)).map((b) => (b.name === joint.bodyA ? { ...b, type: 'static' as const } : b)),
    joints: rig.joints.filter((j) => keep.has(j.bodyA) && keep.has(j.bodyB))
      .map((j) => (j.type !== 'fixed' && j.motor.target.source === 'controller' ? { ...j, motor: { ...j.motor, target: { source: 'rest' as const } } } : j)),
    controllers: [],
    simulation: { ...rig.simulation, ground: null },
  };
  const base = createSimulation(copy), stepped = createSimulation(copy);
  const t0 = stepped.motorTarget(joint.name);
  let sign = 1;
  if (typeof t0 === 'number') {
    const lim = joint.type === 'hinge' ? joint.limit : undefined;
    if (lim && t0 + stepAngle > lim[1] - 0.05) sign = -1;
    stepped.setMotorTargets({ [joint.name]: t0 + sign * stepAngle });
  } else {
    stepped.setMotorTargets({ [joint.name]: quatMul(t0 as Quat, quatFromAxisAngle(axis, stepAngle)) });
  }
  const fA = joint.frameA.rotation as Quat, fB = joint.frameB.rotation as Quat;
  const rel = (sim: typeof base) => quatMul(quatConj(quatMul(sim.bodyPose(joint.bodyA).rotation, fA)), quatMul(sim.bodyPose(joint.bodyB).rotation, fB));
  const steps = Math.ceil((3 * settle + 0.5) / rig.simulation.dt);
  const ys: number[] = [];
  let saturatedSteps = 0;
  for (let s = 0; s < steps; s++) {
    base.step(); stepped.step();
    if (base.blowUp || stepped.blowUp) break;
    const d = quatMul(quatConj(rel(base)), rel(stepped));
    ys.push(dot(quatToRotationVector(d), axis) / stepAngle);
    if (stepped.frame().joints[joint.name]?.saturated) saturatedSteps++;
  }
  // Settling is measured against the response's own final value (a PD joint under gravity ends short of
  // the step by the spring's share of the gravity torque change); the band is 2 % of that value.
  const final = ys.slice(-5).reduce((a, b) => a + b, 0) / Math.max(1, Math.min(5, ys.length));
  let last = -1, peak = 0;
  ys.forEach((y, k) => {
    const v = final !== 0 ? y / final : 0;
    if (Math.abs(v - 1) > BAND) last = k;
    if (v > peak) peak = v;
  });
  const dt = rig.simulation.dt;
  const settled = ys.length === steps && last < ys.length - 1 ? (last + 2) * dt : null;
  return { settle: settled === null ? null : round9(settled), overshoot: round9(Math.max(0, peak - 1) * 100), saturated: round9(saturatedSteps / Math.max(1, ys.length)), final: round9(Math.abs(final)) };
}

function explain(r: JointTune, rig: RigDocument, joint: RigJoint, h: number, overshootOk: boolean): string {
  const a = r.achieved!, reasons: string[] = [];
  if (r.stance) reasons.push('tuned for the weight it holds up in stance, so the hanging limb below it moves faster');
  if (a.settle === null) reasons.push('it did not stay within the 2 % band');
  else reasons.push(`settled in ${fmt(a.settle)} s for ${fmt(r.requested.settle)} s`);
  if (!overshootOk) reasons.push(`overshoot ${fmt(a.overshoot)} % for ${fmt(r.requested.overshoot)} %`);
  if (a.saturated > 0) reasons.push(`saturated at τmax ${fmt(r.params.maxTorque)} N·m for ${fmt(100 * a.saturated)} % of the steps`);
  if (joint.type === 'hinge' && joint.limit && (joint.limit[1] - joint.limit[0]) < 0.3) reasons.push('the joint limits leave little room for the step');
  if (r.requested.settle < 10 * rig.simulation.dt) reasons.push(`the settle time is only ${fmt(r.requested.settle / rig.simulation.dt)} steps of ${fmt(rig.simulation.dt)} s`);
  if (subtreeOf(rig, joint).length > 1 && a.saturated === 0) reasons.push('the chain it carries flexes at its own joints (the inertia assumes it rigid)');
  if (r.mode === 'pd' && 2 * Math.PI / (r.params.stiffness > 0 ? Math.sqrt(r.params.stiffness / r.inertia) : Infinity) < 10 * h) reasons.push('the natural period is under 10 substeps');
  return reasons.join('; ');
}

const fmt = (x: number) => Number(x.toPrecision(3)).toString();
