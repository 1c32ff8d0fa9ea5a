/**
 * Starting PD gains for a joint switched to PD with no gains yet (kp = kv = 0, as every generated joint has:
 * the schema refuses a PD motor with neither). They are the Stiff preset's response as a spring–damper:
 *
 *   the Stiff preset is the position drive with error reduction r = 0.8 (presets.ts). Below its torque
 *   limit that drive is the first-order servo θ̇ = r·ε/dt — it closes r of the error each step, bandwidth
 *   ω = r/dt (rad/s). The PD with the same bandwidth and no overshoot is critically damped, ζ = 1, at
 *   ω_n = r/dt:  f = r / (2π·dt)  (7.64 Hz at the default 60 Hz step),
 *
 * converted to kp = I·ω², kv = 2ζ·I·ω with the joint's effective inertia I (shared/authoring pdGains). The
 * torque limit τmax still clamps the drive, as it clamps the position drive.
 */
import { applyMotorPreset, jointEffectiveInertia, pdGainsFromFrequency } from '../../../shared/authoring';
import type { RigDocument, RigJoint, RigMotor } from '../../../shared/rig';

export interface StartingPd {
  stiffness: number;
  damping: number;
  frequencyHz: number;
  dampingRatio: number;
  /** Effective inertia used (kg·m²). */
  inertia: number;
}

/** The Stiff preset's response as natural frequency (Hz) and damping ratio, for a step of `dt` seconds. */
export function stiffResponse(motor: RigMotor, dt: number): { frequencyHz: number; dampingRatio: number } {
  if (!(dt > 0 && Number.isFinite(dt))) throw new Error(`simulation.dt must be > 0 s, got ${dt}`);
  const r = applyMotorPreset(motor, 'stiff').errorReduction;
  return { frequencyHz: r / (2 * Math.PI * dt), dampingRatio: 1 };
}

/** Six significant digits, as the inspector's frequency fields write gains. */
const sig6 = (v: number) => Number(v.toPrecision(6));

/** Starting kp / kv for `joint` (a joint with a motor) in `rig`; throws with the reason when there are none. */
export function startingPdGains(rig: RigDocument, joint: Extract<RigJoint, { motor: RigMotor }>): StartingPd {
  const inertia = jointEffectiveInertia(rig, joint);
  const { frequencyHz, dampingRatio } = stiffResponse(joint.motor, rig.simulation.dt);
  const g = pdGainsFromFrequency(frequencyHz, dampingRatio, inertia);
  return { stiffness: sig6(g.stiffness), damping: sig6(g.damping), frequencyHz, dampingRatio, inertia };
}

/**
 * What a change of the Motor mode writes (one edit, one undo step): the mode, and — switching to PD with
 * kp = kv = 0 — the starting gains, with a note that says what they are. Other switches keep the gains.
 */
export function motorModeChange(rig: RigDocument, joint: Extract<RigJoint, { motor: RigMotor }>, mode: RigMotor['mode']): { patch: Partial<RigMotor>; note: string | null } {
  const m = joint.motor;
  if (mode !== 'pd' || m.stiffness > 0 || m.damping > 0) return { patch: { mode }, note: null };
  const g = startingPdGains(rig, joint);
  const [kpUnit, kvUnit] = joint.type === 'prismatic' ? ['N/m', 'N·s/m'] : ['N·m/rad', 'N·m·s/rad'];
  return {
    patch: { mode, stiffness: g.stiffness, damping: g.damping },
    note: `PD gains for ${joint.name} from the Stiff preset's response: ${g.frequencyHz.toFixed(2)} Hz, ζ = ${g.dampingRatio} → kp ${g.stiffness} ${kpUnit}, kv ${g.damping} ${kvUnit} (${joint.type === 'prismatic' ? 'm_eff' : 'I_eff'} ${g.inertia.toExponential(2)} ${joint.type === 'prismatic' ? 'kg' : 'kg·m²'})`,
  };
}
