/**
 * A user action on the running preview, applied at `frame` (engine.ts's file comment says when): its own
 * module so the timeline (timeline.ts) and the engines (engine.ts, particleEngine.ts) share the type
 * without importing each other. engine.ts re-exports it.
 *
 * A drag of the grab tool is ONE input: a `grab` carrying the path its spring's end followed (`path`,
 * keys relative to the grab's frame, so moving the input on the timeline moves the whole drag) and when it
 * let go (`releaseAfter`). The older form — a `grab`, then a `grabMove` per frame of the drag, then a
 * `release` — is still read (recordings and files made before); expandInputs turns the one into the other,
 * so the engines apply a single set of kinds. Every input is a plain JSON object (it is saved with projects).
 */
export type Vec3Tuple = [number, number, number];

/** A key of a grab's path: [frames after the grab's frame, x, y, z] — from then on the spring's end is at (x, y, z). */
export type GrabKey = [number, number, number, number];

/** A user action on the running preview, applied at `frame` (see engine.ts's file comment). */
export type PreviewInput =
  | { kind: 'impulse'; frame: number; body: string; point: Vec3Tuple; impulse: Vec3Tuple }
  | { kind: 'blast'; frame: number; center: Vec3Tuple; radius: number; strength: number }
  /** A grab; with `path` / `releaseAfter` a whole drag (keys ascending; no releaseAfter: held to the end). */
  | { kind: 'grab'; frame: number; body: string; point: Vec3Tuple; path?: GrabKey[]; releaseAfter?: number }
  | { kind: 'grabMove'; frame: number; target: Vec3Tuple }
  | { kind: 'release'; frame: number }
  | { kind: 'limp'; frame: number; joints: string[] | 'all'; limp: boolean }
  | { kind: 'target'; frame: number; target: Vec3Tuple | null };

export type GrabInput = Extract<PreviewInput, { kind: 'grab' }>;

/**
 * The inputs with every drag (a grab with a path or a release) spelled out as grab, grabMove per key and
 * release, at absolute frames; other inputs unchanged. The engines' timeline runs on this form, so a drag
 * that grows by a key changes only the frames from that key on.
 */
export function expandInputs(inputs: readonly PreviewInput[]): PreviewInput[] {
  const out: PreviewInput[] = [];
  for (const i of inputs) {
    if (i.kind !== 'grab' || (i.path === undefined && i.releaseAfter === undefined)) { out.push(i); continue; }
    out.push({ kind: 'grab', frame: i.frame, body: i.body, point: i.point });
    for (const [df, x, y, z] of i.path ?? []) out.push({ kind: 'grabMove', frame: i.frame + df, target: [x, y, z] });
    if (i.releaseAfter !== undefined) out.push({ kind: 'release', frame: i.frame + i.releaseAfter });
  }
  return out;
}

/**
 * A drag's path with the spring's end at `target` from frame `frame` (absolute) on: a key at the same
 * frame as the last is replaced (several pointer moves within one frame keep only the last), an earlier
 * frame is clamped to the last key's (the playhead never runs backwards within a drag).
 */
export function extendGrab(g: GrabInput, frame: number, target: readonly number[]): GrabInput {
  const path = g.path ?? [];
  const last = path.at(-1);
  const df = Math.max(0, Math.round(frame) - g.frame, last ? last[0] : 0);
  const key: GrabKey = [df, target[0]!, target[1]!, target[2]!];
  return { ...g, path: last && last[0] === df ? [...path.slice(0, -1), key] : [...path, key] };
}

/** The drag let go at absolute frame `frame` (not before its last key). */
export function releaseGrabAt(g: GrabInput, frame: number): GrabInput {
  const last = g.path?.at(-1);
  return { ...g, path: g.path ?? [], releaseAfter: Math.max(0, Math.round(frame) - g.frame, last ? last[0] : 0) };
}
