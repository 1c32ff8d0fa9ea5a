/**
 * A user action on the running preview, applied at `frame` (engine.ts's file comment says when): its own
 * module so the timeline (timeline.ts) and the engines (engine.ts, particleEngine.ts) share the type
 * without importing each other. engine.ts re-exports it.
 */
export type Vec3Tuple = [number, number, number];

/** A user action on the running preview, applied at `frame` (see engine.ts's file comment). */
export type PreviewInput =
  | { kind: 'impulse'; frame: number; body: string; point: Vec3Tuple; impulse: Vec3Tuple }
  | { kind: 'blast'; frame: number; center: Vec3Tuple; radius: number; strength: number }
  | { kind: 'grab'; frame: number; body: string; point: Vec3Tuple }
  | { kind: 'grabMove'; frame: number; target: Vec3Tuple }
  | { kind: 'release'; frame: number }
  | { kind: 'limp'; frame: number; joints: string[] | 'all'; limp: boolean }
  | { kind: 'target'; frame: number; target: Vec3Tuple | null };
