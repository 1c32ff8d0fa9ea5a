/**
 * Checks that know real rigs — warnings, not errors: the rig is valid and runs, but a user should look.
 *  - a body far from its bone (its centre of mass more than max(2 × the bone's length, 10 % of the rig's
 *    size) from the bone's segment): the generator lost a transform, or a body was dragged away;
 *  - a degenerate shape (a radius, half height or half extent under 1 mm, or under 2 % of its bone's
 *    length): it collides as a point and its inertia is tiny;
 *  - rest overlaps: two bodies that collide with each other (groups and masks allow it, not jointed
 *    together) whose shapes overlap at the rest pose — they fly apart on the first step. Fix: filter each
 *    overlapping cluster from itself (fixRestOverlaps, one undo step in the editor);
 *  - jointed mass and inertia ratios above 10 (massRatio.ts);
 *  - a creature size outside PLAUSIBLE_HEIGHT (bones' vertical extent, or `skeleton.scale` telling it);
 *  - an unbounded slide: a prismatic (or cylindrical / planar) slide with no limit between a body that can
 *    turn (not static) and a dynamic one, its drive off or in velocity mode — nothing brings the body back,
 *    so a turn of the parent at ω flings it out as cosh(ωt) (tests/unit/physics/freeSlide.test.ts):
 *    physics, not the solver, and what most of the random rigs still past 100 m/s are (docs/physics.md).
 */
import { createSimulation } from '../runtime/simulation';
import { boneRestWorld, bodyRestWorld } from '../rig/restPose';
import type { RigDocument, RigMotor } from '../rig/schema';
import { computeMassProperties } from '../physics/massProperties';
import type { ShapeDesc } from '../physics/types';
import { quatRotate } from '../math/quat';
import { add, dot, length, scale, sub, type Vec3 } from '../math/vec3';
import { checkMassRatios } from './massRatio';
import { PLAUSIBLE_HEIGHT } from './creatureScale';

export interface RigWarning {
  kind: 'far-from-bone' | 'degenerate-shape' | 'rest-overlap' | 'mass-ratio' | 'scale' | 'unbounded-slide';
  /** JSON path of what it is about ('' for the rig). */
  path: string;
  message: string;
}

export interface RestOverlap { a: string; b: string; depth: number }

/** Pairs of bodies that collide with each other and overlap at the rest pose (deepest first). */
export function checkRestOverlaps(rig: RigDocument): RestOverlap[] {
  if (rig.bodies.length < 2) return [];
  const jointed = new Set(rig.joints.filter((j) => !j.collideConnected).map((j) => [j.bodyA, j.bodyB].sort().join('\u0000')));
  // One step of the bodies alone (no joints, no gravity, no floor) finds every contact at rest.
  const kin = createSimulation({
    ...rig, controllers: [], joints: [],
    bodies: rig.bodies.map((b) => ({ ...b, type: 'dynamic' as const, linearDamping: 0, angularDamping: 0 })),
    simulation: { ...rig.simulation, gravity: [0, 0, 0], ground: null, substeps: 1, velocityIterations: 1, positionIterations: 0 },
  });
  kin.step();
  // The rigid solver's World names its bodies (the PhysicsWorld interface does not promise it).
  const world = kin.world as typeof kin.world & { bodyName?(h: unknown): string };
  if (typeof world.bodyName !== 'function') return [];
  const out = new Map<string, RestOverlap>();
  for (const c of kin.world.getContacts()) {
    if (c.bodyB === null) continue;
    const [a, b] = [world.bodyName(c.bodyA), world.bodyName(c.bodyB)].sort() as [string, string];
    const key = `${a}\u0000${b}`;
    if (jointed.has(key)) continue;
    const prev = out.get(key);
    if (!prev || prev.depth < c.depth) out.set(key, { a, b, depth: c.depth });
  }
  return [...out.values()].filter((o) => o.depth > 1e-4).sort((x, y) => y.depth - x.depth);
}

/**
 * Filters every cluster of overlapping bodies (connected through overlaps) from itself: each cluster gets a
 * collision group bit of its own (one no body uses yet) that becomes its bodies' group and leaves their
 * masks; bodies outside the clusters whose masks matched a member's old group take the bit, so they still
 * collide with it. Pairs in one cluster that did not overlap stop colliding too.
 */
export function fixRestOverlaps(rig: RigDocument): RigDocument {
  const overlaps = checkRestOverlaps(rig);
  if (overlaps.length === 0) return rig;
  const parent = new Map<string, string>();
  const find = (x: string): string => { let r = x; while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r)!; return r; };
  for (const { a, b } of overlaps) { if (!parent.has(a)) parent.set(a, a); if (!parent.has(b)) parent.set(b, b); parent.set(find(a), find(b)); }
  const roots = [...new Set([...parent.keys()].map(find))].sort();
  // Bits no body uses yet as a group (the last free ones are shared when there are more clusters).
  const used = rig.bodies.reduce((u, b) => (u | b.collisionGroup) >>> 0, 0);
  const free: number[] = [];
  for (let k = 1; k < 32; k++) if (!(used & (1 << k))) free.push((1 << k) >>> 0);
  const bitOf = new Map(roots.map((r, i) => [r, free[Math.min(i, free.length - 1)] ?? (1 << 31) >>> 0]));
  const oldGroup = new Map(rig.bodies.map((b) => [b.name, b.collisionGroup]));
  return {
    ...rig,
    bodies: rig.bodies.map((b) => {
      if (parent.has(b.name)) {
        // Its group becomes the cluster's bit alone (a shared bit left in the group would still match the
        // others' masks), and its mask drops that bit: two bodies of one cluster never match each other.
        const bit = bitOf.get(find(b.name))!;
        return { ...b, collisionGroup: bit, collisionMask: (b.collisionMask & ~bit) >>> 0 };
      }
      // A body outside every cluster keeps colliding with the members it collided with: its mask takes the
      // bit of each cluster whose members' old groups it matched.
      let mask = b.collisionMask;
      for (const [member] of parent) if ((b.collisionMask & oldGroup.get(member)!) !== 0) mask = (mask | bitOf.get(find(member))!) >>> 0;
      return mask === b.collisionMask ? b : { ...b, collisionMask: mask };
    }),
  };
}

/** Every warning of the list above, each naming the body / joint and the numbers. */
export function checkRigPlausibility(rig: RigDocument): RigWarning[] {
  const warnings: RigWarning[] = [];
  const bones = boneRestWorld(rig.skeleton.bones);
  const ys = [...bones.values()].map((b) => b.position[1]);
  const extent = [...bones.values()].reduce((m, b) => Math.max(m, ...[...bones.values()].map((c) => length(sub(b.position, c.position)))), 0);
  const size = Math.max(extent, 1e-3);
  const children = new Map<string, Vec3[]>();
  for (const b of rig.skeleton.bones) if (b.parent !== null && bones.has(b.name)) children.set(b.parent, [...(children.get(b.parent) ?? []), bones.get(b.name)!.position]);
  const boneLength = (name: string) => {
    const head = bones.get(name)!.position;
    return Math.max(0, ...(children.get(name) ?? []).map((c) => length(sub(c, head))));
  };
  const bodyWorld = bodyRestWorld(rig.bodies, bones);
  rig.bodies.forEach((body, i) => {
    const bone = bones.get(body.bone);
    const pose = bodyWorld.get(body.name);
    if (!bone || !pose) return;
    let com: Vec3 = pose.position;
    try {
      const props = computeMassProperties(body.shapes as readonly ShapeDesc[], body.mass !== null ? { mass: body.mass } : { density: body.density ?? 1000 });
      com = add(pose.position, quatRotate(pose.rotation, props.centroid));
    } catch { /* validation reports bad shapes */ }
    // Distance from the bone's segment (head to its farthest child's head).
    const head = bone.position, L = boneLength(body.bone);
    const tips = children.get(body.bone) ?? [];
    let dist = length(sub(com, head));
    for (const tip of tips) {
      const d = sub(tip, head), len2 = dot(d, d);
      const t = len2 > 0 ? Math.max(0, Math.min(1, dot(sub(com, head), d) / len2)) : 0;
      dist = Math.min(dist, length(sub(com, add(head, scale(d, t)))));
    }
    // Measured from the body's surface: an end bone's body (a head, a hand) reaches past its bone's head.
    const reach = Math.max(0, ...body.shapes.map((sh) => length(sh.position as Vec3) + boundingRadius(sh)));
    dist = Math.max(0, dist - reach);
    const limit = Math.max(2 * L, 0.1 * size);
    if (dist > limit) warnings.push({ kind: 'far-from-bone', path: `bodies[${i}]`, message: `body "${body.name}" ends ${dist.toFixed(3)} m from its bone "${body.bone}" (more than ${limit.toFixed(3)} m): a lost transform, or a body moved away from what it drives` });
    body.shapes.forEach((s, k) => {
      const dims: [string, number][] = [];
      if ('radius' in s) dims.push(['radius', s.radius]);
      if ('halfExtents' in s) s.halfExtents.forEach((h, a) => dims.push([`halfExtents[${a}]`, h]));
      if ('semiAxes' in s) (s.semiAxes as number[]).forEach((h, a) => dims.push([`semiAxes[${a}]`, h]));
      const floor = Math.max(1e-3, 0.02 * L);
      const small = dims.filter(([, v]) => v < floor);
      if (small.length) warnings.push({ kind: 'degenerate-shape', path: `bodies[${i}].shapes[${k}]`, message: `body "${body.name}": ${small.map(([n, v]) => `${n} ${v.toPrecision(3)} m`).join(', ')} is under ${floor.toPrecision(3)} m (1 mm, or 2 % of its bone's ${L.toFixed(3)} m): it collides as a point and barely resists turning` });
    });
  });
  for (const o of checkRestOverlaps(rig)) {
    warnings.push({ kind: 'rest-overlap', path: `bodies[${rig.bodies.findIndex((b) => b.name === o.a)}]`, message: `bodies "${o.a}" and "${o.b}" overlap by ${(o.depth * 1000).toFixed(1)} mm at rest and collide with each other: they push apart on the first step (Fix filters them from each other)` });
  }
  for (const m of checkMassRatios(rig)) {
    warnings.push({ kind: 'mass-ratio', path: `joints[${rig.joints.findIndex((j) => j.name === m.joint)}]`, message: `joint "${m.joint}": "${m.heavy}" / "${m.light}" mass ratio ${m.massRatio.toFixed(1)}, inertia ratio ${m.inertiaRatio.toFixed(1)} (above 10 the solver converges slowly, and position or stiff pd drives on the joints of "${m.light}" are softened so they cannot run away (they settle short of their targets under load); raise "${m.light}" to ${m.suggestedMass.toFixed(2)} kg)` });
  }
  warnings.push(...checkUnboundedSlides(rig));
  const height = ys.length ? Math.max(...ys) - Math.min(...ys) : 0;
  const [lo, hi] = PLAUSIBLE_HEIGHT;
  // Bones span a little less than the mesh (no top of the head); 0.5× the lower bound still flags a ×0.01 slip.
  if (rig.skeleton.bones.length > 2 && height > 0 && (height < 0.5 * lo || height > hi)) {
    warnings.push({ kind: 'scale', path: 'skeleton', message: `the skeleton is ${height.toFixed(3)} m tall: outside the plausible ${lo}–${hi} m of a creature — probably authored in another unit; rescale it to its real height (marionette generate --height H, or the editor's Rescale)` });
  }
  return warnings;
}

/**
 * Slides with no limit that nothing brings back: the joint's slide has no limit, its drive is off or in
 * velocity mode (a position or PD drive holds the body, up to its force), bodyA is not static (it can turn)
 * and bodyB is dynamic. In the frame of a parent turning at ω the body feels m·ω²·r outwards and, with
 * nothing holding it, goes out as cosh(ωt): from 0.1 m at 10 rad/s it passes 100 m/s in half a second.
 */
export function checkUnboundedSlides(rig: RigDocument): RigWarning[] {
  const type = new Map(rig.bodies.map((b) => [b.name, b.type]));
  const out: RigWarning[] = [];
  rig.joints.forEach((j, i) => {
    if (type.get(j.bodyA) === 'static' || type.get(j.bodyB) !== 'dynamic') return;
    let free: string[] = [], motor: RigMotor | null = null;
    if (j.type === 'prismatic') { if (j.limit === null || j.limit === undefined) free = ['slide']; motor = j.motor; }
    else if (j.type === 'cylindrical') { if (j.slideLimit === null || j.slideLimit === undefined) free = ['slide']; motor = j.slideMotor; }
    else if (j.type === 'planar') {
      if (j.slideLimitY === null || j.slideLimitY === undefined) free.push('Y slide');
      if (j.slideLimitZ === null || j.slideLimitZ === undefined) free.push('Z slide');
      motor = j.slideMotor;
    }
    if (free.length === 0 || motor === null || (motor.mode !== 'off' && motor.mode !== 'velocity')) return;
    const it = free.length > 1 ? 'them' : 'it';
    const held = motor.mode === 'off' ? `no drive holds ${it}` : `its velocity drive moves ${it} along and never back`;
    out.push({
      kind: 'unbounded-slide', path: `joints[${i}]`,
      message: `joint "${j.name}": the ${free.join(' and ')} of "${j.bodyB}" on "${j.bodyA}" ${free.length > 1 ? 'have no limits' : 'has no limit'} and ${held}: when "${j.bodyA}" turns at ω, "${j.bodyB}" is flung out as cosh(ωt) (from 0.1 m at 10 rad/s, past 100 m/s in half a second) — give ${free.length > 1 ? 'each a limit' : 'it a limit'}, or a position or PD drive`,
    });
  });
  return out;
}

function boundingRadius(s: RigDocument['bodies'][number]['shapes'][number]): number {
  switch (s.type) {
    case 'sphere': return s.radius;
    case 'capsule': return s.radius + s.halfHeight;
    case 'box': return Math.hypot(...s.halfExtents);
    default: {
      const r = s as unknown as { radius?: number; halfHeight?: number; semiAxes?: number[] };
      return Math.max(r.radius ?? 0, (r.radius ?? 0) + (r.halfHeight ?? 0), ...(r.semiAxes ?? [0]));
    }
  }
}
