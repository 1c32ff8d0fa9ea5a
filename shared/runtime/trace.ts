/**
 * The trace format: what `marionette simulate` writes and `Simulation.frame()` returns. Stable, so other
 * tools can read it (docs/runtime.md):
 *
 *   { "rig": NAME, "dt": s, "frames": [ { "t": s,
 *       "bodies": { NAME: { "p": [x,y,z] m, "q": [x,y,z,w], "v": [..] m/s, "w": [..] rad/s } },
 *       "joints": { NAME: { "error": m, "torque": N·m, "maxTorque": N·m, "saturated": bool } },
 *       "controllers": { NAME: { "phase": cycles } } } ] }
 *
 * `dt` is the time between recorded frames (rig dt × `every`). CSV flattens the same columns, one row per
 * frame: t, then per body NAME.p.x … NAME.w.z, per joint NAME.error, NAME.torque, NAME.maxTorque,
 * NAME.saturated (0/1), per controller NAME.phase.
 */
export interface BodyFrame { p: number[]; q: number[]; v: number[]; w: number[] }
export interface JointFrame {
  /** Positional error of the joint's anchors (m) after the step. */
  error: number;
  /** Largest per-row motor torque applied during the step (N·m; N for prismatic). */
  torque: number;
  maxTorque: number;
  /** A motor row ended the step at its clamp ±maxTorque·dt. */
  saturated: boolean;
}
export interface TraceFrame {
  t: number;
  bodies: Record<string, BodyFrame>;
  joints: Record<string, JointFrame>;
  controllers: Record<string, { phase: number }>;
}
export interface Trace { rig: string; dt: number; frames: TraceFrame[] }

const AXES = ['x', 'y', 'z'] as const;
const QAXES = ['x', 'y', 'z', 'w'] as const;

/** Column names of the CSV form for frames shaped like `sample`. */
export function traceColumns(sample: TraceFrame): string[] {
  const cols = ['t'];
  for (const name of Object.keys(sample.bodies)) {
    for (const a of AXES) cols.push(`${name}.p.${a}`);
    for (const a of QAXES) cols.push(`${name}.q.${a}`);
    for (const a of AXES) cols.push(`${name}.v.${a}`);
    for (const a of AXES) cols.push(`${name}.w.${a}`);
  }
  for (const name of Object.keys(sample.joints)) cols.push(`${name}.error`, `${name}.torque`, `${name}.maxTorque`, `${name}.saturated`);
  for (const name of Object.keys(sample.controllers)) cols.push(`${name}.phase`);
  return cols;
}

/** One CSV row (numbers in shortest round-trip form, so the CSV carries the same values as the JSON). */
export function traceRow(f: TraceFrame): string {
  const row: (number | string)[] = [f.t];
  for (const b of Object.values(f.bodies)) row.push(...b.p, ...b.q, ...b.v, ...b.w);
  for (const j of Object.values(f.joints)) row.push(j.error, j.torque, j.maxTorque, j.saturated ? 1 : 0);
  for (const c of Object.values(f.controllers)) row.push(c.phase);
  return row.join(',');
}

/** Quote a column name for CSV when it needs it (names are user text). */
export function csvHeader(columns: readonly string[]): string {
  return columns.map((c) => (/[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
}

export function traceToCsv(trace: Trace): string {
  if (trace.frames.length === 0) return 't\n';
  const lines = [csvHeader(traceColumns(trace.frames[0]!))];
  for (const f of trace.frames) lines.push(traceRow(f));
  return `${lines.join('\n')}\n`;
}
