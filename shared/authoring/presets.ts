/**
 * Motor presets (a starting point an artist then adjusts), expressed relative to the joint's τmax so they
 * suit a finger and a hip alike:
 *  - stiff: position drive, r = 0.8, τmax unchanged — holds the pose hard, the PuppetMaster "pinned" feel;
 *  - loose: position drive, r = 0.2, τmax × 0.35 — follows the target but gives way to hits and gravity;
 *  - limp:  off, with joint friction 2 % of τmax — a ragdoll that still feels like it has muscles.
 */
import type { RigMotor } from '../rig/schema';

export type MotorPreset = 'stiff' | 'loose' | 'limp';
export const MOTOR_PRESETS: readonly MotorPreset[] = ['stiff', 'loose', 'limp'];

export function applyMotorPreset(motor: RigMotor, preset: MotorPreset, baseTorque = motor.maxTorque): RigMotor {
  switch (preset) {
    case 'stiff': return { ...motor, mode: 'position', errorReduction: 0.8, maxTorque: baseTorque };
    case 'loose': return { ...motor, mode: 'position', errorReduction: 0.2, maxTorque: baseTorque * 0.35 };
    case 'limp': return { ...motor, mode: 'off', frictionTorque: baseTorque * 0.02 };
  }
}
