/**
 * Preview inputs: poke (an impulse at a point of a body), blast (a radial impulse), grab (a spring to a
 * moving target) and go limp / power on — each stamped on the preview's timeline at the frame shown, so it
 * is part of the recording that plays, scrubs and plots. The arguments are checked here (finite numbers, a
 * body or joint of the rig) and the preview (injected: platform.preview) does the rest; a refusal from it
 * comes back as a Result, never a throw.
 */
import type { EditorCore } from './core';
import { err, ok, thrownText, type Result } from './types';

/** Blast radius (m) of the Poke tool's Shift-click. */
export const BLAST_RADIUS = 1.5;

type Vec = readonly number[];
const isVec3 = (v: Vec): boolean => v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

export class InputCommands<C> {
  constructor(private readonly editor: Pick<EditorCore<C>, 'platform' | 'rig' | 'notify'>) {}

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
    return this.#send(what, (p) => p.setLimp(joints, limp));
  }
}
