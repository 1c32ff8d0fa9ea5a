/**
 * Go limp / power on under either solver, as the preview engines apply them (pure: no React, no store):
 *  - rigid (preview/engine.ts): every joint's motor starts powered; a limp input turns the motors off;
 *  - particle (preview/particleEngine.ts, docs/particles.md): a particle ragdoll starts limp — the paper's
 *    ragdoll — and Power on turns on the pose drive (a PD turn of each joint toward its rest pose).
 * A joint's state at a frame is its solver's start state changed by the limp / power-on inputs up to and
 * including that frame (an input at frame f acts before the step f → f + 1).
 */
export type DriveSolver = 'rigid' | 'particle';

export interface LimpInput { kind: string; frame: number; joints?: readonly string[] | 'all'; limp?: boolean }

/** How the preview starts each joint: the rigid motors powered, the particle pose drive off (limp). */
export const startsLimp = (solver: DriveSolver): boolean => solver === 'particle';

/** Whether `joint` is limp at `frame` under `solver` after `inputs` (the last limp / power-on input naming it). */
export function isLimpAt(inputs: readonly LimpInput[], joint: string, frame: number, solver: DriveSolver = 'rigid'): boolean {
  let limp = startsLimp(solver);
  for (const i of inputs) {
    if (i.kind !== 'limp' || i.frame > frame) continue;
    if (i.joints === 'all' || i.joints?.includes(joint)) limp = !!i.limp;
  }
  return limp;
}

export interface CreatureDrive {
  /** Go limp / Power on for the whole creature can act now. */
  enabled: boolean;
  /** Why not, when disabled (the buttons' tooltip, the Rig menu's message). */
  reason: string | null;
  limpTitle: string;
  powerTitle: string;
}

/**
 * Go limp / Power on for the whole creature: under the rigid solver they switch the rig's motors, so they
 * need bodies; under the particle solver (a particle example, or a creature previewed as particles, with
 * or without bodies) they switch the pose drive of every particle joint.
 */
export function creatureDrive(state: { particlePreview: boolean; hasBodies: boolean }): CreatureDrive {
  if (state.particlePreview) {
    return {
      enabled: true, reason: null,
      limpTitle: 'Every joint goes limp from the frame shown: the particle pose drive lets go (a particle ragdoll starts limp)',
      powerTitle: 'Every joint is driven toward its rest pose from the frame shown: the particle pose drive turns on',
    };
  }
  const reason = state.hasBodies ? null : 'the rig has no bodies yet: generate them (or preview with the Particle solver)';
  return {
    enabled: state.hasBodies, reason,
    limpTitle: reason ? `Go limp: ${reason}` : "Every joint's motor lets go from the frame shown; the bodies keep their velocity",
    powerTitle: reason ? `Power on: ${reason}` : "Every joint's motor drives again from the frame shown",
  };
}
