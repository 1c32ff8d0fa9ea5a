/**
 * Document edits of the cyclic-path controller and of the motors it drives, as pure functions
 * (document, arguments) → document that throw an Error naming the field on bad input. The editor runs
 * them through its undo history (editor.edit; a drag is one step with beginGesture/endGesture).
 */
import type { EditorDocument } from '../../../shared/document';
import { cyclicPathControllerSchema, type CyclicPathController, type RigDocument } from '../../../shared/rig';
import { setMotor } from '../../../shared/authoring';

type Point = [number, number, number];
/** A cyclic path needs three points (the spline's minimum). */
export const MIN_POINTS = 3;

export function pathController(rig: RigDocument, name: string): CyclicPathController {
  const c = rig.controllers.find((x) => x.name === name);
  if (!c || c.type !== 'cyclicPath') throw new Error(`Controller "${name}": not a cyclic-path controller of this rig.`);
  return c;
}

function withController(doc: EditorDocument, name: string, update: (c: CyclicPathController) => CyclicPathController): EditorDocument {
  const old = pathController(doc.rig, name);
  const next = update(old);
  if (next === old) return doc;
  return { ...doc, rig: { ...doc.rig, controllers: doc.rig.controllers.map((c) => (c === old ? next : c)) } };
}

const checkPoint = (p: readonly number[], field: string): Point => {
  if (p.length !== 3 || !p.every((v) => typeof v === 'number' && Number.isFinite(v))) throw new Error(`${field}: must be three finite numbers (m), got ${JSON.stringify(p)}.`);
  return [p[0]!, p[1]!, p[2]!];
};

export function setControlPoint(doc: EditorDocument, controller: string, index: number, point: readonly number[]): EditorDocument {
  return withController(doc, controller, (c) => {
    if (!(Number.isInteger(index) && index >= 0 && index < c.controlPoints.length)) throw new Error(`${controller} point ${index + 1}: there are ${c.controlPoints.length} points.`);
    const p = checkPoint(point, `${controller} point ${index + 1}`);
    const cur = c.controlPoints[index]!;
    if (cur[0] === p[0] && cur[1] === p[1] && cur[2] === p[2]) return c;
    const n = c.controlPoints.length;
    for (const k of [(index + n - 1) % n, (index + 1) % n]) {
      const q = c.controlPoints[k]!;
      if (Math.hypot(q[0] - p[0], q[1] - p[1], q[2] - p[2]) < 1e-4) throw new Error(`${controller} point ${index + 1}: would coincide with point ${k + 1} (neighbouring points must differ).`);
    }
    return { ...c, controlPoints: c.controlPoints.map((q, i) => (i === index ? p : q)) };
  });
}

/** Insert a point after `index`, halfway to the next one along the loop. Returns the document and the new index. */
export function insertControlPoint(doc: EditorDocument, controller: string, index: number): { doc: EditorDocument; index: number } {
  let at = -1;
  const next = withController(doc, controller, (c) => {
    const n = c.controlPoints.length;
    if (!(Number.isInteger(index) && index >= 0 && index < n)) throw new Error(`${controller} point ${index + 1}: there are ${n} points.`);
    const a = c.controlPoints[index]!, b = c.controlPoints[(index + 1) % n]!;
    const mid: Point = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
    at = index + 1;
    return { ...c, controlPoints: [...c.controlPoints.slice(0, at), mid, ...c.controlPoints.slice(at)] };
  });
  return { doc: next, index: at };
}

export function removeControlPoint(doc: EditorDocument, controller: string, index: number): EditorDocument {
  return withController(doc, controller, (c) => {
    const n = c.controlPoints.length;
    if (!(Number.isInteger(index) && index >= 0 && index < n)) throw new Error(`${controller} point ${index + 1}: there are ${n} points.`);
    if (n <= MIN_POINTS) throw new Error(`${controller}: a cyclic path needs at least ${MIN_POINTS} points; add one before removing this.`);
    return { ...c, controlPoints: c.controlPoints.filter((_, i) => i !== index) };
  });
}

/** The steering target (world, m) the controller starts with, or null to go straight. */
export function setSteeringTarget(doc: EditorDocument, controller: string, target: readonly number[] | null): EditorDocument {
  return withController(doc, controller, (c) => {
    const t = target ? checkPoint(target, `${controller} steering target`) : null;
    const cur = c.steering.target;
    if ((t === null && cur === null) || (t && cur && t.every((v, i) => v === cur[i]))) return c;
    return { ...c, steering: { ...c.steering, target: t } };
  });
}

/** τmax (N·m) or r (error reduction, 0 … 1) of one motor, through shared/authoring's checked setMotor. */
export function setMotorNumber(doc: EditorDocument, joint: string, field: 'maxTorque' | 'errorReduction', value: number): EditorDocument {
  const label = field === 'maxTorque' ? 'τmax' : 'r';
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${joint} ${label}: must be a number, got ${String(value)}.`);
  const r = setMotor(doc.rig, joint, { [field]: value });
  if (!r.ok) throw new Error(`${joint} ${label}: ${r.message}`);
  return r.rig === doc.rig ? doc : { ...doc, rig: r.rig };
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
} as const;
export type GaitSetting = keyof typeof GAIT_SETTINGS;

/** The value of a gait setting as it is used (an omitted optional steering field reads as its default). */
export function gaitSetting(c: CyclicPathController, field: GaitSetting): number {
  switch (field) {
    case 'rate': return c.rate;
    case 'phaseOffset': return c.phaseOffset;
    case 'steering.gain': return c.steering.gain;
    case 'steering.maxAngle': return c.steering.maxAngle;
    case 'steering.window': return c.steering.window ?? 0;
    case 'steering.rateGain': return c.steering.rateGain ?? 0;
    case 'steering.pivotLead': return c.steering.pivotLead ?? 0.7;
    case 'steering.stopRadius': return c.steering.stopRadius ?? 0;
    case 'steering.arriveRadius': return c.steering.arriveRadius ?? c.steering.stopRadius ?? 0;
    case 'steering.restartRadius': return c.steering.restartRadius ?? gaitSetting(c, 'steering.arriveRadius');
    case 'steering.minStroke': return c.steering.minStroke ?? 0.5;
  }
}

/**
 * One gait or steering number, checked against the rig schema's own rule for that field, so the message
 * is the one a loaded file would get (e.g. `hand-path phaseOffset: must be < 1, got 1.5`).
 */
export function setGaitSetting(doc: EditorDocument, controller: string, field: GaitSetting, value: number): EditorDocument {
  return withController(doc, controller, (c) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${controller} ${field}: must be a number, got ${String(value)}.`);
    if (gaitSetting(c, field) === value) return c; // also an omitted optional set to its default: nothing changes
    const next: CyclicPathController = field.startsWith('steering.')
      ? { ...c, steering: { ...c.steering, [field.slice(9)]: value } }
      : { ...c, [field]: value };
    const parsed = cyclicPathControllerSchema.safeParse(next);
    if (!parsed.success) {
      const message = parsed.error.issues[0]!.message;
      const bound = /expected number to be ([<>]=?)\s*(\S+)$/.exec(message);
      if (!bound && /got /.test(message)) throw new Error(`${controller} ${parsed.error.issues[0]!.path.join('.')}: ${message}.`); // a cross-field rule names its own value
      const rule = bound ? `must be ${bound[1]!.replace('>=', '≥').replace('<=', '≤')} ${Number(Number(bound[2]).toPrecision(6))}` : message;
      throw new Error(`${controller} ${field}: ${rule}, got ${value}.`);
    }
    return next;
  });
}

/** A disabled controller freezes its phase and sets no motor targets (the limb then holds its last targets). */
export function setGaitEnabled(doc: EditorDocument, controller: string, enabled: boolean): EditorDocument {
  return withController(doc, controller, (c) => (c.enabled === enabled ? c : { ...c, enabled }));
}
