/**
 * Drawing the timeline canvas (2D context, CSS pixels × dpr): ruler with second ticks, loop range, the
 * recorded fill, the phase strip (each controller's phase as a hue sweep, one hue cycle per gait cycle),
 * the gait diagram (a rig with two or more limbs: one lane per cyclicPath controller, stance — its
 * effector on the floor, from the recorded contacts, shared/gait/gaitDiagram.ts — filled, swing empty),
 * the key track and the playhead. Returns the geometry the pointer handlers need.
 */
import type { PreviewClient } from '../preview/client';
import type { PreviewState } from '../preview/previewStore';
import type { RigDocument } from '../../../shared/rig/schema';
import { BODY_STRIDE, JOINT_STRIDE } from '../../../shared/runtime/trace';
import { gaitLanes, type GaitLane } from '../../../shared/gait/gaitDiagram';

export const TRACK = { ruler: 18, fill: 6, phase: 14, keys: 16, pad: 10, lane: 9, laneGap: 2 };

export interface TimelineGeometry {
  left: number; width: number; frames: number; keyTop: number;
  /** The gait diagram's lanes as drawn (empty without one): limb name and stance fraction (duty). */
  lanes: { name: string; duty: number }[];
}

/** Limbs (cyclicPath controllers) of a rig — the gait diagram has a lane each when there are two or more. */
export const limbCount = (rig: RigDocument | null | undefined): number => rig?.controllers.filter((c) => c.type === 'cyclicPath').length ?? 0;

/** Height (px) the gait diagram takes for `limbs` limbs (0 below two). */
export const gaitDiagramHeight = (limbs: number): number => (limbs >= 2 ? limbs * (TRACK.lane + TRACK.laneGap) + 2 : 0);

let laneCache: { key: string; lanes: GaitLane[] } | null = null;

/** The lanes of the client's recording, recomputed only when the recording changed. */
function recordedLanes(client: PreviewClient): GaitLane[] {
  const L = client.layout;
  if (!L || L.particles || limbCount(L.rig) < 2) return [];
  const key = `${L.generation}|${client.version}|${client.count}`;
  if (laneCache?.key === key) return laneCache.lanes;
  const lanes = gaitLanes({ rig: L.rig, bodies: L.layout.bodies, frames: client.frames, frameSize: L.frameSize, aux: client.aux, auxSize: L.aux.size, contactsOffset: L.aux.contacts, count: client.count });
  laneCache = { key, lanes };
  return lanes;
}

export const xOfFrame = (g: TimelineGeometry, f: number): number => g.left + (f / Math.max(1, g.frames)) * g.width;
export const frameAtX = (g: TimelineGeometry, x: number): number => Math.max(0, Math.min(g.frames, Math.round(((x - g.left) / g.width) * g.frames)));

const COLORS = {
  bg: '#1d1f23', ruler: '#26292e', tick: '#4a4f57', tickText: '#8b919a', fill: '#3b82c4', fillBg: '#2a2d33',
  loop: 'rgba(255, 140, 0, 0.12)', loopEdge: '#ff8c00', playhead: '#ff8c00', key: '#ff6b3d', keySel: '#ffffff',
  impulse: '#f5d90a', blast: '#ff5bd6', limp: '#9aa0a6', grab: '#7cd992',
};

export function drawTimeline(ctx: CanvasRenderingContext2D, size: { width: number; height: number; dpr: number }, client: PreviewClient, st: PreviewState, selectedKey: number): TimelineGeometry {
  const { width, height, dpr } = size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = COLORS.bg;
  ctx.fillRect(0, 0, width, height);
  const g: TimelineGeometry = { left: TRACK.pad, width: Math.max(10, width - 2 * TRACK.pad), frames: Math.max(1, st.duration), keyTop: 0, lanes: [] };
  const dt = st.dt;

  // Ruler: ticks every 1 s (labels every 1, 2, 5 or 10 s depending on room).
  ctx.fillStyle = COLORS.ruler;
  ctx.fillRect(0, 0, width, TRACK.ruler);
  const seconds = g.frames * dt;
  const pxPerS = g.width / seconds;
  const labelEvery = [1, 2, 5, 10, 20, 30, 60].find((s) => s * pxPerS >= 48) ?? 60;
  const tickEvery = labelEvery >= 5 ? labelEvery / 5 : labelEvery / 2;
  ctx.font = '10px ui-monospace, SFMono-Regular, Menlo, monospace';
  ctx.textBaseline = 'middle';
  for (let s = 0; s <= seconds + 1e-9; s += tickEvery) {
    const x = Math.round(g.left + s * pxPerS) + 0.5;
    const major = Math.abs(s / labelEvery - Math.round(s / labelEvery)) < 1e-6;
    ctx.strokeStyle = COLORS.tick;
    ctx.beginPath(); ctx.moveTo(x, major ? 8 : 13); ctx.lineTo(x, TRACK.ruler); ctx.stroke();
    if (major) {
      // Right of its tick; the last one (at the very end) would be cut by the edge, so it goes left of it.
      const label = `${Math.round(s)}s`, w = ctx.measureText(label).width;
      ctx.fillStyle = COLORS.tickText;
      ctx.fillText(label, x + 3 + w > width ? x - 3 - w : x + 3, 7);
    }
  }

  let y = TRACK.ruler + 4;
  // Recorded fill.
  ctx.fillStyle = COLORS.fillBg;
  ctx.fillRect(g.left, y, g.width, TRACK.fill);
  ctx.fillStyle = st.problem ? '#a33' : COLORS.fill;
  ctx.fillRect(g.left, y, Math.max(0, xOfFrame(g, Math.max(0, client.count - 1)) - g.left), TRACK.fill);
  y += TRACK.fill + 4;

  // Phase strip: hue = phase (one colour cycle per gait cycle), one pixel column per sample.
  const L = client.layout;
  const controllers = L?.layout.controllers.length ?? 0;
  if (L && controllers > 0 && client.count > 0) {
    const phaseCol = 1 + L.layout.bodies.length * BODY_STRIDE + L.layout.joints.length * JOINT_STRIDE;
    const end = Math.min(client.count, g.frames + 1);
    const cols = Math.ceil(xOfFrame(g, end - 1) - g.left);
    for (let px = 0; px <= cols; px++) {
      const f = Math.min(end - 1, Math.round((px / g.width) * g.frames));
      const phase = client.frames[f * L.frameSize + phaseCol]!;
      ctx.fillStyle = `hsl(${Math.round(phase * 360)}, 55%, ${phase < 0.04 ? 75 : 45}%)`;
      ctx.fillRect(g.left + px, y, 1, TRACK.phase);
    }
  } else {
    ctx.fillStyle = COLORS.fillBg;
    ctx.fillRect(g.left, y, g.width, TRACK.phase);
  }
  ctx.fillStyle = 'rgba(255,255,255,0.55)';
  ctx.fillText('phase', g.left + 4, y + TRACK.phase / 2);
  y += TRACK.phase + 4;

  // Gait diagram: a lane per limb, stance runs filled in the limb's hue.
  const lanes = recordedLanes(client);
  if (lanes.length > 0) {
    const end = Math.min(client.count, g.frames + 1);
    ctx.save();
    ctx.font = '8px ui-monospace, SFMono-Regular, Menlo, monospace';
    lanes.forEach((lane, k) => {
      ctx.fillStyle = COLORS.fillBg;
      ctx.fillRect(g.left, y, g.width, TRACK.lane);
      ctx.fillStyle = `hsl(${Math.round((k * 360) / lanes.length)}, 60%, 58%)`;
      for (let f = 0; f < end; f++) {
        if (!lane.stance[f]) continue;
        let e = f;
        while (e + 1 < end && lane.stance[e + 1]) e++;
        const x0 = xOfFrame(g, f), x1 = xOfFrame(g, e + 1);
        ctx.fillRect(x0, y + 1, Math.max(1, x1 - x0), TRACK.lane - 2);
        f = e;
      }
      // The limb's name on a dark tab at the lane's start, readable over a stance run.
      const w = ctx.measureText(lane.name).width + 6;
      ctx.fillStyle = 'rgba(20,22,26,0.85)';
      ctx.fillRect(g.left, y, w, TRACK.lane);
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      ctx.fillText(lane.name, g.left + 3, y + TRACK.lane / 2 + 0.5);
      y += TRACK.lane + TRACK.laneGap;
    });
    ctx.restore();
    y += 2;
    g.lanes = lanes.map((l) => ({ name: l.name, duty: l.duty }));
  }

  // Key track: steering keys as diamonds, other inputs as small glyphs.
  g.keyTop = y;
  ctx.fillStyle = COLORS.fillBg;
  ctx.fillRect(g.left, y, g.width, TRACK.keys);
  st.inputs.forEach((inp, i) => {
    const x = xOfFrame(g, inp.frame), cy = y + TRACK.keys / 2;
    ctx.fillStyle = inp.kind === 'target' ? COLORS.key : inp.kind === 'impulse' ? COLORS.impulse : inp.kind === 'blast' ? COLORS.blast : inp.kind === 'limp' ? COLORS.limp : COLORS.grab;
    ctx.beginPath();
    if (inp.kind === 'target') { ctx.moveTo(x, cy - 5); ctx.lineTo(x + 5, cy); ctx.lineTo(x, cy + 5); ctx.lineTo(x - 5, cy); }
    else ctx.rect(x - 2, cy - 5, 4, 10);
    ctx.closePath();
    ctx.fill();
    if (i === selectedKey) { ctx.strokeStyle = COLORS.keySel; ctx.lineWidth = 1.5; ctx.stroke(); ctx.lineWidth = 1; }
  });
  if (st.inputs.length === 0) { ctx.fillStyle = 'rgba(255,255,255,0.3)'; ctx.fillText('keys', g.left + 4, y + TRACK.keys / 2); }

  // Loop range.
  if (st.loop.enabled) {
    const a = xOfFrame(g, st.loop.start), b = xOfFrame(g, st.loop.end);
    ctx.fillStyle = COLORS.loop;
    ctx.fillRect(a, 0, b - a, height);
    ctx.fillStyle = COLORS.loopEdge;
    for (const x of [a, b]) { ctx.fillRect(x - 1, 0, 2, height); ctx.fillRect(x - 4, 0, 8, 6); }
  }

  // Playhead.
  const f = Math.max(0, Math.floor(client.playhead));
  const x = Math.round(xOfFrame(g, f)) + 0.5;
  ctx.strokeStyle = COLORS.playhead;
  ctx.lineWidth = 1.5;
  ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, height); ctx.stroke();
  ctx.lineWidth = 1;
  ctx.fillStyle = COLORS.playhead;
  ctx.beginPath(); ctx.moveTo(x - 5, 0); ctx.lineTo(x + 5, 0); ctx.lineTo(x, 7); ctx.closePath(); ctx.fill();
  return g;
}
