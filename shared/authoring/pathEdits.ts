/**
 * Edits of the cyclic-path controller (its points, steering target, gait and steering numbers) and of the
 * motors it drives, as pure functions RigDocument → EditResult like every other authoring edit: the same
 * rig back when nothing changes, `{ ok: false, field, message }` naming the field on bad input. The editor
 * (shared/editor) runs them as undo steps; a drag is one step through its gesture marks.
 *
 * Defaults of omitted optional steering fields are the controller's own constants (shared/gait/controller.ts),
 * so the inspector shows the value the simulation uses.
 */
import { cyclicPathControllerSchema, type CyclicPathController, type RigDocument } from '../rig/schema';
import { ARRIVE_MIN_STROKE, RIGHTING_DEFAULTS, STEER_PIVOT_LEAD } from '../gait/controller';
import { fail, type EditResult } from './editResult';
import { setMotor } from './jointEdits';

type Point = [number, number, number];
/** A cyclic path needs three points (the spline's minimum). */
export const MIN_POINTS = 3;

/** The cyclic-path controller `name` of the rig, or null. */
export function pathController(rig: RigDocument, name: string): CyclicPathController | null {
  const c = rig.controllers.find((x) => x.name === name);
  return c && c.type === 'cyclicPath' ? c : null;
}

const notAController = (name: string): EditResult => fail(`Controller "${name}"`, 'not a cyclic-path controller of this rig.');

/** `update` returns the controller changed, the same object for no change, or a refusal. */
function withController(rig: RigDocument, name: string, update: (c: CyclicPathController) => CyclicPathController | EditResult): EditResult {
  const old = pathController(rig, name);
  if (!old) return notAController(name);
  const next = update(old);
  if ('ok' in next) return next;
  if (next === old) return { ok: true, rig };
  return { ok: true, rig: { ...rig, controllers: rig.controllers.map((c) => (c === old ? next : c)) } };
}

const checkPoint = (p: readonly number[], field: string): Point | EditResult => {
  if (p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) return fail(field, `must be three finite numbers (m), got ${JSON.stringify(p)}.`);
  return [p[0]!, p[1]!, p[2]!];
};
const isPoint = (p: Point | EditResult): p is Point => Array.isArray(p);

const badIndex = (c: CyclicPathController, controller: string, index: number): EditResult | null =>
  Number.isInteger(index) && index >= 0 && index < c.controlPoints.length ? null : fail(`${controller} point ${index + 1}`, `there are ${c.controlPoints.length} points.`);

export function setControlPoint(rig: RigDocument, controller: string, index: number, point: readonly number[]): EditResult {
  return withController(rig, controller, (c) => {
    const bad = badIndex(c, controller, index);
    if (bad) return bad;
    const p = checkPoint(point, `${controller} point ${index + 1}`);
    if (!isPoint(p)) return p;
    const cur = c.controlPoints[index]!;
    if (cur[0] === p[0] && cur[1] === p[1] && cur[2] === p[2]) return c;
    const n = c.controlPoints.length;
    for (const k of [(index + n - 1) % n, (index + 1) % n]) {
      const q = c.controlPoints[k]!;
      if (Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]) < 1e-4) return fail(`${controller} point ${index + 1}`, `would coincide with point ${k + 1} (neighbouring points must differ).`);
    }
    return { ...c, controlPoints: c.controlPoints.map((q, i) => (i === index ? p : q)) };
  });
}

/** Insert a point after `index`, halfway to the next one along the loop; the new point is at `index + 1`. */
export function insertControlPoint(rig: RigDocument, controller: string, index: number): EditResult {
  return withController(rig, controller, (c) => {
    const bad = badIndex(c, controller, index);
    if (bad) return bad;
    const n = c.controlPoints.length;
    const a = c.controlPoints[index]!, b = c.controlPoints[(index + 1) % n]!;
    const mid: Point = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    return { ...c, controlPoints: [...c.controlPoints.slice(0, index + 1), mid, ...c.controlPoints.slice(index + 1)] };
  });
}

export function removeControlPoint(rig: RigDocument, controller: string, index: number): EditResult {
  return withController(rig, controller, (c) => {
    const bad = badIndex(c, controller, index);
    if (bad) return bad;
    if (c.controlPoints.length <= MIN_POINTS) return fail(controller, `a cyclic path needs at least ${MIN_POINTS} points; add one before removing this.`);
    return { ...c, controlPoints: c.controlPoints.filter((_, i) => i !== index) };
  });
}

/** The steering target (world, m) the controller starts with, or null to go straight. */
export function setSteeringTarget(rig: RigDocument, controller: string, target: readonly number[] | null): EditResult {
  return withController(rig, controller, (c) => {
    const t = target ? checkPoint(target, `${controller} steering target`) : null;
    if (t && !isPoint(t)) return t;
    const cur = c.steering.target;
    if ((t === null && cur === null) || (t && cur && t.every((v, i) => v === cur[i]))) return c;
    return { ...c, steering: { ...c.steering, target: t } };
  });
}

/** τmax (N·m) or r (error reduction, 0 … 1) of one motor, through the checked setMotor. */
export function setMotorNumber(rig: RigDocument, joint: string, field: 'maxTorque' | 'errorReduction', value: number): EditResult {
  const label = `${joint} ${field === 'maxTorque' ? 'τmax' : 'r'}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(label, `must be a number, got ${String(value)}.`);
  const r = setMotor(rig, joint, { [field]: value });
  return r.ok ? r : fail(label, r.message);
}

/** The gait and steering settings of a cyclic path that the inspector edits, with their units. */
export const GAIT_SETTINGS = {
  rate: { label: 'Rate', unit: 'cycles/s' },
  phaseOffset: { label: 'Phase offset', unit: 'cycles' },
  'steering.gain': { label: 'Steering gain', unit: 'skew per rad' },
  'steering.maxAngle': { label: 'Max skew', unit: 'rad' },
  'steering.window': { label: 'Heading window', unit: 'cycles' },
  'steering.rateGain': { label: 'Yaw-rate lead', unit: 's' },
  'steering.pivotLead': { label: 'Pivot lead', unit: 'm' },
  'steering.stopRadius': { label: 'Stop radius (0 = never stop)', unit: 'm' },
  'steering.arriveRadius': { label: 'Slow-down radius', unit: 'm' },
  'steering.restartRadius': { label: 'Restart radius', unit: 'm' },
  'steering.minStroke': { label: 'Stroke at stop radius', unit: 'fraction' },
  'righting.start': { label: 'Righting from tilt (π = off)', unit: 'rad' },
  'righting.full': { label: 'Righting full at tilt', unit: 'rad' },
  'righting.follow': { label: 'Righting lean', unit: 'fraction of tilt' },
} as const;
export type GaitSetting = keyof typeof GAIT_SETTINGS;

/** The value of a gait setting as it is used (an omitted optional steering field reads as the controller's default). */
export function gaitSetting(c: CyclicPathController, field: GaitSetting): number {
  switch (field) {
    case 'rate': return c.rate;
    case 'phaseOffset': return c.phaseOffset;
    case 'steering.gain': return c.steering.gain;
    case 'steering.maxAngle': return c.steering.maxAngle;
    case 'steering.window': return c.steering.window ?? 0;
    case 'steering.rateGain': return c.steering.rateGain ?? 0;
    case 'steering.pivotLead': return c.steering.pivotLead ?? STEER_PIVOT_LEAD;
    case 'steering.stopRadius': return c.steering.stopRadius ?? 0;
    case 'steering.arriveRadius': return c.steering.arriveRadius ?? c.steering.stopRadius ?? 0;
    case 'steering.restartRadius': return c.steering.restartRadius ?? gaitSetting(c, 'steering.arriveRadius');
    case 'steering.minStroke': return c.steering.minStroke ?? ARRIVE_MIN_STROKE;
    // No righting block: the path never follows the tilt, which reads as starting at π (off).
    case 'righting.start': return c.righting?.start ?? Math.PI;
    case 'righting.full': return c.righting?.full ?? Math.PI;
    case 'righting.follow': return c.righting?.follow ?? RIGHTING_DEFAULTS.follow;
  }
}

/** The controller with one righting number set. Without a righting block, setting any of its numbers turns
 *  righting on with RIGHTING_DEFAULTS for the others (full at least the new start). */
function withRighting(c: CyclicPathController, key: 'start' | 'full' | 'follow', value: number): CyclicPathController {
  const base = c.righting ?? (key === 'start' ? { ...RIGHTING_DEFAULTS, full: Math.max(RIGHTING_DEFAULTS.full, value) } : RIGHTING_DEFAULTS);
  return { ...c, righting: { ...base, [key]: value } };
}

/**
 * One gait or steering number, checked against the rig schema's own rule for that field, so the message
 * is the one a loaded file would get (e.g. `hand-path phaseOffset: must be < 1, got 1.5`).
 */
export function setGaitSetting(rig: RigDocument, controller: string, field: GaitSetting, value: number): EditResult {
  return withController(rig, controller, (c) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`${controller} ${field}`, `must be a number, got ${String(value)}.`);
    if (gaitSetting(c, field) === value) return c; // also an omitted optional set to its default: nothing changes
    const next: CyclicPathController = field.startsWith('steering.')
      ? { ...c, steering: { ...c.steering, [field.slice(9)]: value } }
      : field.startsWith('righting.') ? withRighting(c, field.slice(9) as 'start' | 'full' | 'follow', value)
        : { ...c, [field]: value };
    const parsed = cyclicPathControllerSchema.safeParse(next);
    if (parsed.success) return next;
    const issue = parsed.error.issues[0]!;
    const bound = /expected number to be ([<>]=?)\s*(\S+)$/.exec(issue.message);
    if (!bound && /got /.test(issue.message)) return fail(`${controller} ${issue.path.join('.')}`, `${issue.message}.`); // a cross-field rule names its own value
    const rule = bound ? `must be ${bound[1]!.replace('>=', '≥').replace('<=', '≤')} ${Number(Number(bound[2]).toPrecision(6))}` : issue.message;
    return fail(`${controller} ${field}`, `${rule}, got ${value}.`);
  });
}

/** A disabled controller freezes its phase and sets no motor targets (the limb then holds its last targets). */
export function setGaitEnabled(rig: RigDocument, controller: string, enabled: boolean): EditResult {
  return withController(rig, controller, (c) => (c.enabled === enabled ? c : { ...c, enabled }));
}
