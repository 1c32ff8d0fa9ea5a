/**
 * FrameRecorder: the timeline's recording, one flat frame per step in a preallocated Float64Array (layout:
 * trace.ts "flat frames"), written by `Simulation.writeFrame` without allocating. Trace objects
 * (TraceFrame, the format of docs/runtime.md) are built only when asked for — a scrub, a plot, an export.
 *
 *   const rec = new FrameRecorder(sim, { capacity: 60 * 60 });   // one minute at 60 Hz
 *   for (…) { sim.step(); rec.record(); }
 *   rec.frame(i); rec.trace(); rec.truncate(n);                   // re-simulate from frame n
 *
 * When full, the buffer doubles (amortised O(1), the only allocation); give the capacity you expect.
 */
import type { Simulation } from './simulation';
import { flatFrameSize, frameFromFlat, type FrameLayout, type Trace, type TraceFrame } from './trace';

/** What the recorder needs from a simulation. */
export type RecordableSimulation = Pick<Simulation, 'writeFrame' | 'bodyNames' | 'jointNames' | 'controllerNames' | 'dt'> & {
  readonly rig: { readonly name: string };
};

export class FrameRecorder {
  readonly layout: FrameLayout;
  /** Numbers per frame. */
  readonly frameSize: number;
  private data: Float64Array;
  private count = 0;

  constructor(private readonly sim: RecordableSimulation, options: { capacity?: number } = {}) {
    const capacity = options.capacity ?? 1024;
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new Error(`FrameRecorder: capacity must be an integer ≥ 1 (frames), got ${capacity}`);
    this.layout = { bodies: [...sim.bodyNames], joints: [...sim.jointNames], controllers: [...sim.controllerNames] };
    this.frameSize = flatFrameSize(this.layout);
    this.data = new Float64Array(capacity * this.frameSize);
  }

  /** Frames recorded. */
  get length(): number { return this.count; }
  /** Frames that fit before the buffer grows. */
  get capacity(): number { return this.data.length / this.frameSize; }

  /** Append the simulation's current state; returns its frame index. */
  record(): number {
    if ((this.count + 1) * this.frameSize > this.data.length) {
      const bigger = new Float64Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.sim.writeFrame(this.data, this.count * this.frameSize);
    return this.count++;
  }

  /** Frame i as a TraceFrame (allocates the objects). */
  frame(i: number): TraceFrame {
    this.check(i);
    return frameFromFlat(this.layout, this.data, i * this.frameSize);
  }

  /** Frame i's flat numbers copied into `out` (allocation-free; for the viewport and the plots). */
  read(i: number, out: Float64Array): Float64Array {
    this.check(i);
    if (out.length < this.frameSize) throw new Error(`FrameRecorder.read: out holds ${out.length} numbers, a frame needs ${this.frameSize}`);
    out.set(this.data.subarray(i * this.frameSize, (i + 1) * this.frameSize));
    return out;
  }

  /** One column over frames [from, to): e.g. a body's p.y for a plot. `column` indexes the flat layout. */
  column(column: number, from = 0, to = this.count, out = new Float64Array(Math.max(0, to - from))): Float64Array {
    if (!(Number.isInteger(column) && column >= 0 && column < this.frameSize)) throw new Error(`FrameRecorder.column: column ${column} is outside 0..${this.frameSize - 1}`);
    for (let i = from; i < to; i++) out[i - from] = this.data[i * this.frameSize + column]!;
    return out;
  }

  /** Append frames recorded elsewhere for the same layout (flat numbers, a whole number of frames): the
   *  preview keeps the unchanged start of a recording when an edit re-simulates only what follows. */
  append(flat: Float64Array): void {
    if (flat.length % this.frameSize !== 0) throw new Error(`FrameRecorder.append: ${flat.length} numbers are not a whole number of ${this.frameSize}-number frames`);
    const need = this.count * this.frameSize + flat.length;
    if (need > this.data.length) {
      const bigger = new Float64Array(Math.max(this.data.length * 2, need));
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data.set(flat, this.count * this.frameSize);
    this.count += flat.length / this.frameSize;
  }

  /** Keep the first n frames (the timeline re-simulates from there after an edit). */
  truncate(n: number): void {
    if (!(Number.isInteger(n) && n >= 0)) throw new Error(`FrameRecorder.truncate: n must be an integer ≥ 0, got ${n}`);
    this.count = Math.min(this.count, n);
  }

  /** The recording in the trace format: every `every`-th frame (dt = rig dt × every). */
  trace(every = 1): Trace {
    if (!(Number.isInteger(every) && every >= 1)) throw new Error(`FrameRecorder.trace: every must be an integer ≥ 1, got ${every}`);
    const frames: TraceFrame[] = [];
    for (let i = every - 1; i < this.count; i += every) frames.push(this.frame(i));
    return { rig: this.sim.rig.name, dt: this.sim.dt * every, frames };
  }

  private check(i: number): void {
    if (!(Number.isInteger(i) && i >= 0 && i < this.count)) throw new Error(`FrameRecorder: frame ${i} is not recorded (0..${this.count - 1})`);
  }
}
