/**
 * Format versions and the chain of migrations between them. A migration is a small pure function from
 * version N's JSON to version N+1's JSON; loading runs the chain from the file's version to RIG_VERSION,
 * then validates the result. A version newer than RIG_VERSION is refused (never half-read).
 *
 * Migrations never throw on malformed input: they rename and convert what is there and leave the rest for
 * validation to report, so a broken old file gets the same clear problems as a broken new one.
 *
 * Version history
 *  - 0: the pre-release draft (Marionette 0.0.x). Limits in degrees; motor fields `tau` (N·m), `erp`,
 *       `kp`, `kd`, `friction`, `targetSource` + `clip`; bodies' `group` / `mask`; one `iterations` count;
 *       no `units`, `axes`, `solver` or `controllers`.
 *  - 1: this format (schema.ts): radians, `motor.target`, descriptive names, explicit units and axes.
 */
import { RIG_AXES, RIG_UNITS, RIG_VERSION } from './schema';

type Json = Record<string, unknown>;

export interface Migration {
  from: number;
  to: number;
  /** One line for the changelog and the CLI's `--verbose` output. */
  summary: string;
  migrate(doc: Json): Json;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEG = Math.PI / 180;

function rename(o: Json, from: string, to: string): void {
  if (from in o) {
    if (!(to in o)) o[to] = o[from];
    delete o[from];
  }
}

/** Degrees → radians for a [min, max] pair; anything else is left for validation to report. */
function degreesToRadians(o: Json, key: string): void {
  const r = o[key];
  if (Array.isArray(r)) o[key] = r.map((v) => (typeof v === 'number' ? v * DEG : v));
}

export const migrations: readonly Migration[] = [
  {
    from: 0,
    to: 1,
    summary: 'limits from degrees to radians; motor tau/erp/kp/kd/friction/targetSource → maxTorque/errorReduction/stiffness/damping/frictionTorque/target; group/mask → collisionGroup/collisionMask; iterations → velocityIterations + positionIterations; explicit units, axes, solver, controllers',
    migrate(doc) {
      const out: Json = { ...doc, version: 1 };
      out.units ??= { ...RIG_UNITS };
      out.axes ??= { ...RIG_AXES };
      out.solver ??= 'rigid';
      out.controllers ??= [];
      if (Array.isArray(out.bodies)) {
        for (const b of out.bodies) {
          if (!isObject(b)) continue;
          rename(b, 'group', 'collisionGroup');
          rename(b, 'mask', 'collisionMask');
        }
      }
      if (Array.isArray(out.joints)) {
        for (const j of out.joints) {
          if (!isObject(j)) continue;
          // Prismatic limits were metres already; only angles were in degrees.
          if (j.type === 'hinge') degreesToRadians(j, 'limit');
          if (j.type === 'ball') { degreesToRadians(j, 'twistLimit'); degreesToRadians(j, 'swingLimit'); }
          const m = j.motor;
          if (!isObject(m)) continue;
          rename(m, 'tau', 'maxTorque');
          rename(m, 'erp', 'errorReduction');
          rename(m, 'kp', 'stiffness');
          rename(m, 'kd', 'damping');
          rename(m, 'friction', 'frictionTorque');
          if ('targetSource' in m || 'clip' in m) {
            const target: Json = { source: m.targetSource ?? 'rest' };
            if (m.clip !== undefined) target.clip = m.clip;
            delete m.targetSource;
            delete m.clip;
            m.target ??= target;
          }
        }
      }
      const sim = out.simulation;
      if (isObject(sim)) {
        rename(sim, 'iterations', 'velocityIterations');
        sim.positionIterations ??= 2;
      }
      return out;
    },
  },
];

export type MigrationResult =
  | { ok: true; doc: Json; from: number; applied: readonly Migration[] }
  | { ok: false; message: string };

/**
 * Bring a parsed document of version `from` up to RIG_VERSION. The input is never mutated (each migration
 * works on a deep copy).
 */
export function migrate(doc: Json, from: number): MigrationResult {
  if (from > RIG_VERSION) {
    return { ok: false, message: `rig version ${from} is newer than this Marionette (knows ≤ ${RIG_VERSION}); update Marionette to load it` };
  }
  const oldest = Math.min(...migrations.map((m) => m.from), RIG_VERSION);
  if (from < oldest) return { ok: false, message: `rig version ${from} is older than any this Marionette can read (oldest: ${oldest})` };
  let current: Json = JSON.parse(JSON.stringify(doc)) as Json;
  const applied: Migration[] = [];
  for (let v = from; v < RIG_VERSION; v++) {
    const m = migrations.find((x) => x.from === v);
    if (!m) return { ok: false, message: `no migration from rig version ${v} to ${v + 1}` };
    current = m.migrate(current);
    applied.push(m);
  }
  return { ok: true, doc: current, from, applied };
}
