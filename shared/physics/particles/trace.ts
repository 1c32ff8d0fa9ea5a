/**
 * Particle columns for `marionette simulate`'s trace. The JSON form is ParticleTraceFrame: the trace frame
 * of shared/runtime/trace.ts plus "particles": {NAME: [x, y, z]} (m, world). The CSV form appends, per
 * particle in scene order, the columns NAME.x, NAME.y and NAME.z after the runtime's own columns (which
 * are only `t` for a particle scene, since it has no bodies, joints or controllers).
 */
import type { ParticleTraceFrame } from './simulation';

const AXES = ['x', 'y', 'z'] as const;

export function particleTraceColumns(sample: ParticleTraceFrame): string[] {
  const cols: string[] = [];
  for (const name of Object.keys(sample.particles)) for (const a of AXES) cols.push(`${name}.${a}`);
  return cols;
}

/** The values of particleTraceColumns for one frame, in the same order. */
export function particleTraceValues(frame: ParticleTraceFrame): number[] {
  const out: number[] = [];
  for (const p of Object.values(frame.particles)) out.push(p[0]!, p[1]!, p[2]!);
  return out;
}
