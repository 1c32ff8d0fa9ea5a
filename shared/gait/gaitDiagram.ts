/**
 * The gait diagram (the timeline's lanes, docs/locomotion.md "Multi-limb gaits"): per limb — each cyclicPath
 * controller — and per recorded frame, stance (its effector on the floor) or swing, read from the recording:
 * the bodies' poses in the flat frames (shared/runtime/trace.ts) and the contact points each frame's aux
 * record keeps (shared/preview/engine.ts). A limb is in stance when a recorded contact lies on the floor
 * (within FLOOR_TOLERANCE of the ground height), within STANCE_RADIUS of its effector point (the effector
 * body's pose × the controller's effector offset) and nearer to it than to any other limb's. Pure numbers,
 * no DOM: the timeline draws them, the tests check them against the world's own contact list.
 */
import type { RigDocument } from '../rig/schema';
import { BODY_STRIDE } from '../runtime/trace';

/** How far (m) a floor contact may be from the effector point and still be the limb's. A foot ball's
 *  contact is its radius below the effector; a hand's is within its length. */
export const STANCE_RADIUS = 0.12;
/** How far (m) above the ground height a contact point may be and still be on the floor. */
export const FLOOR_TOLERANCE = 0.02;

/** What the diagram reads of a recording. */
export interface GaitRecording {
  rig: RigDocument;
  /** Body names in flat-frame order (FrameLayout.bodies). */
  bodies: readonly string[];
  /** count × frameSize numbers. */
  frames: Float64Array;
  frameSize: number;
  /** count × auxSize numbers. */
  aux: Float64Array;
  auxSize: number;
  /** Offset of the contact block in an aux record: count, then (x, y, z, impulse) per contact. */
  contactsOffset: number;
  /** Frames to read. */
  count: number;
}

export interface GaitLane {
  /** The controller (limb). */
  name: string;
  /** Its effector body. */
  body: string;
  /** 1 = stance, 0 = swing, per frame. */
  stance: Uint8Array;
  /** Fraction of the frames in stance (the duty factor). */
  duty: number;
}

/** One lane per cyclicPath controller of the rig whose effector body is in the recording. Each floor contact
 *  goes to the nearest effector (feet stepping close to each other are told apart), if within `radius`. */
export function gaitLanes(r: GaitRecording, radius = STANCE_RADIUS): GaitLane[] {
  const ground = r.rig.simulation.ground?.height ?? 0;
  const limbs: { name: string; body: string; index: number; offset: readonly number[] }[] = [];
  for (const c of r.rig.controllers) {
    if (c.type !== 'cyclicPath') continue;
    const b = r.bodies.indexOf(c.effector.body);
    if (b >= 0) limbs.push({ name: c.name, body: c.effector.body, index: b, offset: c.effector.offset });
  }
  const stance = limbs.map(() => new Uint8Array(r.count));
  const down = limbs.map(() => 0);
  const eff = new Float64Array(limbs.length * 3);
  const fr = r.frames;
  for (let f = 0; f < r.count; f++) {
    limbs.forEach((l, k) => {
      const o = f * r.frameSize + 1 + l.index * BODY_STRIDE;
      const px = fr[o]!, py = fr[o + 1]!, pz = fr[o + 2]!, qx = fr[o + 3]!, qy = fr[o + 4]!, qz = fr[o + 5]!, qw = fr[o + 6]!;
      const ox = l.offset[0]!, oy = l.offset[1]!, oz = l.offset[2]!;
      // Effector = p + q·offset (q·v = v + 2w(u×v) + 2u×(u×v), u = (qx, qy, qz)).
      const tx = 2 * (qy * oz - qz * oy), ty = 2 * (qz * ox - qx * oz), tz = 2 * (qx * oy - qy * ox);
      eff[3 * k] = px + ox + qw * tx + (qy * tz - qz * ty);
      eff[3 * k + 1] = py + oy + qw * ty + (qz * tx - qx * tz);
      eff[3 * k + 2] = pz + oz + qw * tz + (qx * ty - qy * tx);
    });
    const a = f * r.auxSize + r.contactsOffset;
    const n = r.aux[a]! | 0;
    for (let c = 0; c < n; c++) {
      const q = a + 1 + 4 * c, cx = r.aux[q]!, cy = r.aux[q + 1]!, cz = r.aux[q + 2]!;
      if (cy > ground + FLOOR_TOLERANCE) continue;
      let best = -1, bestD = radius * radius;
      for (let k = 0; k < limbs.length; k++) {
        const d = (cx - eff[3 * k]!) ** 2 + (cy - eff[3 * k + 1]!) ** 2 + (cz - eff[3 * k + 2]!) ** 2;
        if (d <= bestD) { bestD = d; best = k; }
      }
      if (best >= 0 && !stance[best]![f]) { stance[best]![f] = 1; down[best]!++; }
    }
  }
  return limbs.map((l, k) => ({ name: l.name, body: l.body, stance: stance[k]!, duty: r.count > 0 ? down[k]! / r.count : 0 }));
}
