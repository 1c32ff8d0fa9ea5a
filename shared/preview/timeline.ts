/**
 * The recorded timeline both preview engines share (engine.ts: rigid, particleEngine.ts: particles): the
 * inputs sorted and indexed by frame, a simulation snapshot every `snapshotEvery` frames, and cutting the
 * recording back to the last snapshot at or before the earliest changed frame so the engine re-simulates
 * from there. The engine owns its simulation and its recorded frames; the timeline reaches them only
 * through the three hooks below.
 */
import { expandInputs, type PreviewInput } from './input';

export interface TimelineHooks<Snapshot> {
  /** Frames recorded so far. */
  length(): number;
  snapshot(): Snapshot;
  /** Put the simulation back to `snap`, taken at frame `frame`, and keep frames 0 … frame of the recording. */
  rewind(snap: Snapshot, frame: number): void;
}

export class Timeline<Snapshot> {
  /** The inputs, drags spelled out (input.ts expandInputs), sorted by frame (a stable sort: inputs of one
   *  frame keep the order they came in). */
  inputs: readonly PreviewInput[] = [];
  /** The earliest frame the last setInputs changed (frames ≤ it are unaffected). */
  lastChange = Infinity;
  /** Non-null once the simulation blew up: no further frames are computed for this rig and inputs. */
  failure: string | null = null;
  private byFrame = new Map<number, PreviewInput[]>();
  private readonly snapshots = new Map<number, Snapshot>();

  constructor(private readonly hooks: TimelineHooks<Snapshot>, private readonly snapshotEvery: number) {}

  /** The inputs acting on frame f (applied after frame f is recorded, before the step f → f + 1). */
  inputsAt(f: number): readonly PreviewInput[] { return this.byFrame.get(f) ?? []; }

  /** Call once frame i is recorded: keeps a snapshot on every snapshotEvery-th frame. */
  recorded(i: number): void {
    if (i % this.snapshotEvery === 0 && !this.snapshots.has(i)) this.snapshots.set(i, this.hooks.snapshot());
  }

  /** Replace the inputs. Returns the recording's new length (cut back by invalidateFrom when they changed). */
  setInputs(inputs: readonly PreviewInput[]): number {
    const next = expandInputs(inputs).sort((a, b) => a.frame - b.frame);
    const oldKeys = this.inputs.map((i) => JSON.stringify(i)), newKeys = next.map((i) => JSON.stringify(i));
    let changed = Infinity;
    for (let i = 0; i < Math.max(oldKeys.length, newKeys.length); i++) {
      if (oldKeys[i] !== newKeys[i]) { changed = Math.min(this.inputs[i]?.frame ?? Infinity, next[i]?.frame ?? Infinity); break; }
    }
    this.inputs = next;
    this.byFrame = new Map();
    for (const i of next) {
      const list = this.byFrame.get(i.frame);
      if (list) list.push(i); else this.byFrame.set(i.frame, [i]);
    }
    if (changed === Infinity) return this.hooks.length();
    this.lastChange = changed;
    this.failure = null;
    return this.invalidateFrom(changed);
  }

  /** The last snapshot frame at or before `frame` (0 at least: frame 0's is always kept). */
  snapshotAtOrBefore(frame: number): number {
    let s = Math.max(0, Math.min(frame, this.hooks.length() - 1));
    s -= s % this.snapshotEvery;
    while (s > 0 && !this.snapshots.has(s)) s -= this.snapshotEvery;
    return s;
  }

  /** The snapshots of frames 1 … through (to hand to another timeline, see adopt). Snapshots are never
   *  mutated once taken, so two timelines may share them. */
  snapshotsThrough(through: number): [number, Snapshot][] {
    return [...this.snapshots].filter(([k]) => k > 0 && k <= through);
  }

  /** Take another run's snapshots of frames the recording already holds (copied from that run), then
   *  resume from the last of them (`frame`). */
  adopt(snapshots: readonly [number, Snapshot][], frame: number): number {
    for (const [k, snap] of snapshots) this.snapshots.set(k, snap);
    return this.invalidateFrom(frame);
  }

  /** Drop frames after the last snapshot at or before `frame`; the simulation resumes from that snapshot. */
  invalidateFrom(frame: number): number {
    const length = this.hooks.length();
    if (frame >= length) return length;
    let s = Math.max(0, Math.min(frame, length - 1));
    s -= s % this.snapshotEvery;
    while (s > 0 && !this.snapshots.has(s)) s -= this.snapshotEvery;
    const snap = this.snapshots.get(s);
    if (!snap) throw new Error(`preview: no snapshot at frame ${s}`);
    for (const k of this.snapshots.keys()) if (k > s) this.snapshots.delete(k);
    this.hooks.rewind(snap, s);
    this.failure = null;
    return this.hooks.length();
  }
}
