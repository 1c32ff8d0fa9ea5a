/**
 * The trace format: what `marionette simulate` writes and `Simulation.frame()` returns. Stable, so other
 * tools can read it (docs/runtime.md):
 *
 *   { "rig": NAME, "dt": s, "frames": [ { "t": s,
 *       "bodies": { NAME: { "p": [x,y,z] m, "q": [x,y,z,w], "v": [..] m/s, "w": [..] rad/s } },
 *       "joints": { NAME: { "error": m, "torque": N·m, "maxTorque": N·m, "saturated": bool, "torqueMagnitude": N·m } },
 *       "controllers": { NAME: { "phase": cycles } } } ] }
 *
 * `dt` is the time between recorded frames (rig dt × `every`). CSV flattens the same columns, one row per
 * frame: t, then per body NAME.p.x … NAME.w.z, per joint NAME.error, NAME.torque, NAME.maxTorque,
 * NAME.saturated (0/1), NAME.torqueMagnitude, per controller NAME.phase.
 */
export interface BodyFrame { p: number[]; q: number[]; v: number[]; w: number[] }
export interface JointFrame {
  /** Positional error of the joint's anchors (m) after the step. */
  error: number;
  /** Largest per-row motor torque applied during the step, the largest over its substeps (N·m; N for prismatic). */
  torque: number;
  maxTorque: number;
  /** The motor's impulse ended the step at its clamp (a row at ±maxTorque·dt; with torqueLimit "magnitude"
   *  the vector at ‖λ‖ = maxTorque·dt). */
  saturated: boolean;
  /** Magnitude of the motor's torque vector (N·m; = torque for one-row motors), the largest over the substeps. */
  torqueMagnitude: number;
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
  for (const name of Object.keys(sample.joints)) cols.push(`${name}.error`, `${name}.torque`, `${name}.maxTorque`, `${name}.saturated`, `${name}.torqueMagnitude`);
  for (const name of Object.keys(sample.controllers)) cols.push(`${name}.phase`);
  return cols;
}

/** One CSV row (numbers in shortest round-trip form, so the CSV carries the same values as the JSON). */
export function traceRow(f: TraceFrame): string {
  const row: (number | string)[] = [f.t];
  for (const b of Object.values(f.bodies)) row.push(...b.p, ...b.q, ...b.v, ...b.w);
  for (const j of Object.values(f.joints)) row.push(j.error, j.torque, j.maxTorque, j.saturated ? 1 : 0, j.torqueMagnitude);
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

// ---------------------------------------------------------------------------------------------- flat frames

/**
 * The flat form of a frame: the CSV columns as numbers, in the same order (t; per body p.xyz q.xyzw v.xyz
 * w.xyz; per joint error, torque, maxTorque, saturated as 0/1, torqueMagnitude; per controller phase). `Simulation.writeFrame`
 * writes it without allocating; `FrameRecorder` keeps one per step in a Float64Array; `frameFromFlat`
 * turns it back into the TraceFrame objects — the same numbers, bit for bit (doubles stored as doubles).
 */
export interface FrameLayout {
  readonly bodies: readonly string[];
  readonly joints: readonly string[];
  readonly controllers: readonly string[];
}

/** Numbers per body (p 3, q 4, v 3, w 3), per joint (error, torque, maxTorque, saturated, torqueMagnitude),
 *  per controller. */
export const BODY_STRIDE = 13;
export const JOINT_STRIDE = 5;
export const CONTROLLER_STRIDE = 1;

/** Numbers in one flat frame of this layout. */
export function flatFrameSize(layout: FrameLayout): number {
  return 1 + layout.bodies.length * BODY_STRIDE + layout.joints.length * JOINT_STRIDE + layout.controllers.length * CONTROLLER_STRIDE;
}

/** A flat frame (at `offset` in `data`) as a TraceFrame. */
export function frameFromFlat(layout: FrameLayout, data: ArrayLike<number>, offset = 0): TraceFrame {
  let o = offset;
  const t = data[o++]!;
  const take = (n: number): number[] => { const a = new Array<number>(n); for (let k = 0; k < n; k++) a[k] = data[o++]!; return a; };
  const bodies: TraceFrame['bodies'] = {};
  for (const name of layout.bodies) bodies[name] = { p: take(3), q: take(4), v: take(3), w: take(3) };
  const joints: TraceFrame['joints'] = {};
  for (const name of layout.joints) {
    joints[name] = { error: data[o]!, torque: data[o + 1]!, maxTorque: data[o + 2]!, saturated: data[o + 3] !== 0, torqueMagnitude: data[o + 4]! };
    o += JOINT_STRIDE;
  }
  const controllers: TraceFrame['controllers'] = {};
  for (const name of layout.controllers) controllers[name] = { phase: data[o++]! };
  return { t, bodies, joints, controllers };
}
