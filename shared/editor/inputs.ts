/**
 * Preview inputs: poke (an impulse at a point of a body), blast (a radial impulse), grab (a spring to a
 * moving target) and go limp / power on — each stamped on the preview's timeline at the frame shown, so it
 * is part of the recording that plays, scrubs and plots. The arguments are checked here (finite numbers, a
 * body or joint of the rig) and the preview (injected: platform.preview) does the rest; a refusal from it
 * comes back as a Result, never a throw. The inputs are saved with the project (files.ts) and reopen with
 * it; `clear` takes them all off the timeline.
 */
import type { PreviewInput } from '../preview/input';
import type { RigDocument } from '../rig/schema';
import type { EditorCore } from './core';
import { err, ok, thrownText, type Result } from './types';

/** Blast radius (m) of the Poke tool's Shift-click. */
export const BLAST_RADIUS = 1.5;

type Vec = readonly number[];
const isVec3 = (v: Vec): boolean => v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

export class InputCommands<C> {
  constructor(private readonly editor: Pick<EditorCore<C>, 'platform' | 'rig' | 'notify' | 'setStatus'>) {}

  #send(what: string, f: (p: NonNullable<EditorCore<C>['platform']['preview']>) => void): Result {
    const preview = this.editor.platform.preview;
    if (!preview) return this.#fail(what, 'the preview is not running');
    try { f(preview); } catch (e) { return this.#fail(what, thrownText(e)); }
    return ok();
  }

  #fail(what: string, message: string): Result {
    this.editor.notify('error', `${what}: ${message}`);
    return err(what, message);
  }

  #checkBody(what: string, body: string): Result | null {
    const rig = this.editor.rig;
    return rig && !rig.bodies.some((b) => b.name === body) ? this.#fail(what, `there is no body named "${body}"`) : null;
  }

  #checkVecs(what: string, vecs: Record<string, Vec>): Result | null {
    for (const [name, v] of Object.entries(vecs)) if (!isVec3(v)) return this.#fail(what, `${name} must be three finite numbers, got ${JSON.stringify(v)}`);
    return null;
  }

  /** An impulse (N·s, world) at a world point of a body. */
  poke(body: string, point: Vec, impulse: Vec): Result {
    return this.#checkBody('Impulse', body) ?? this.#checkVecs('Impulse', { point, impulse }) ?? this.#send('Impulse', (p) => p.applyImpulseAt(body, point, impulse));
  }

  /** A radial impulse: `strength` N·s at the centre, falling to 0 at `radius` m. */
  blast(centre: Vec, strength: number, radius = BLAST_RADIUS): Result {
    const bad = this.#checkVecs('Blast', { centre });
    if (bad) return bad;
    if (!(Number.isFinite(strength) && strength > 0)) return this.#fail('Blast', `strength must be > 0 N·s, got ${strength}`);
    if (!(Number.isFinite(radius) && radius > 0)) return this.#fail('Blast', `radius must be > 0 m, got ${radius}`);
    const r = this.#send('Blast', (p) => p.blast(centre, radius, strength));
    if (r.ok) this.editor.notify('info', `Blast ${strength} N·s at ${centre.map((x) => x.toFixed(2)).join(', ')}`);
    return r;
  }

  /** Grab a body at a world point; moveGrab drags the spring's target, releaseGrab lets go. */
  grab(body: string, point: Vec): Result {
    return this.#checkBody('Grab', body) ?? this.#checkVecs('Grab', { point }) ?? this.#send('Grab', (p) => p.grab(body, point));
  }

  moveGrab(target: Vec): Result {
    return this.#checkVecs('Grab', { target }) ?? this.#send('Grab', (p) => p.moveGrab(target));
  }

  releaseGrab(): Result { return this.#send('Release', (p) => p.releaseGrab()); }

  /** Go limp (motors off) or power on, for some joints or all, from the frame shown. */
  setLimp(joints: string[] | 'all', limp: boolean): Result {
    const what = limp ? 'Go limp' : 'Power on';
    const rig = this.editor.rig;
    if (joints !== 'all' && rig) {
      const missing = joints.find((j) => !rig.joints.some((x) => x.name === j));
      if (missing) return this.#fail(what, `there is no joint named "${missing}"`);
    }
    const r = this.#send(what, (p) => p.setLimp(joints, limp));
    if (r.ok) this.editor.setStatus(`${what}: ${joints === 'all' ? 'all joints' : joints.join(', ')}${limp ? ' (motors off)' : ' (motors driving again)'} from the frame shown`);
    return r;
  }

  /** The inputs on the preview's timeline (none when the preview is not running). */
  list(): PreviewInput[] {
    try { return this.editor.platform.preview?.list?.() ?? []; } catch { return []; }
  }

  /** Take every poke, blast, grab and limp switch off the timeline (the preview re-simulates). ok with how many. */
  clear(): Result<number> {
    const preview = this.editor.platform.preview;
    if (!preview?.replace) return this.#fail('Clear inputs', 'the preview is not running') as Result<number>;
    const n = this.list().length;
    try { preview.replace([]); } catch (e) { return this.#fail('Clear inputs', thrownText(e)) as Result<number>; }
    this.editor.notify('info', n === 0 ? 'The timeline has no inputs to clear' : `Cleared ${n} preview input${n === 1 ? '' : 's'} from the timeline`);
    return ok(n);
  }
}

/** What an input names that `rig` lacks (a body or joint), or null when it fits the rig. */
function missingName(rig: RigDocument, input: PreviewInput): string | null {
  const body = input.kind === 'impulse' || input.kind === 'grab' ? input.body : null;
  if (body !== null && !rig.bodies.some((b) => b.name === body)) return `body "${body}"`;
  if (input.kind === 'limp' && input.joints !== 'all') {
    const j = input.joints.find((n) => !rig.joints.some((x) => x.name === n));
    if (j !== undefined) return `joint "${j}"`;
  }
  return null;
}

/**
 * A saved project's inputs checked against its rig: those naming a body or joint the rig no longer has are
 * left out, each with the reason (the caller tells the user: nothing is dropped silently). A grab whose
 * body is gone takes its moves and release with it.
 */
export function inputsForRig(rig: RigDocument, inputs: readonly PreviewInput[]): { kept: PreviewInput[]; dropped: string[] } {
  const kept: PreviewInput[] = [], dropped: string[] = [];
  let grabGone = false;
  for (const input of inputs) {
    if (input.kind === 'grab') grabGone = false;
    if ((input.kind === 'grabMove' || input.kind === 'release') && grabGone) continue;
    const missing = missingName(rig, input);
    if (missing) {
      if (input.kind === 'grab') grabGone = true;
      dropped.push(`${input.kind} at frame ${input.frame}: the rig has no ${missing}`);
      continue;
    }
    kept.push(input);
  }
  return { kept, dropped };
}
