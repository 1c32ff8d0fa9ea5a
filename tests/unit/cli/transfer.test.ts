/** Rig transfer (issue 15 item 3): shared/authoring transferRig and `marionette transfer` — the humanoid
 *  onto its FBX gives the same bodies within 1e-4 m, Mixamo names map by anatomy, a scaled skeleton scales
 *  the rig, an unmatched bone is listed and what it carried is reported, bad files are refused. */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transferRig } from '../../../shared/authoring';
import { bodyRestWorld, boneRestWorld } from '../../../shared/rig/restPose';
import { validateRig, type RigDocument } from '../../../shared/rig';
import { composeTransforms, quatConj, quatMul, quatNormalize, quatRotate, type ReadonlyQuat, type Vec3 } from '../../../shared/math';
import { readCreatureInput } from '../../../cli/commands/generate';
import { runInProcess } from './run';
import { repo } from '../rig/corpus';

const dir = mkdtempSync(join(tmpdir(), 'marionette-transfer-'));
const humanoidRig = `${repo}assets/creatures/humanoid.rig.json`;
const humanoid = JSON.parse(readFileSync(humanoidRig, 'utf8')) as RigDocument;

const bodiesWorld = (rig: RigDocument) => bodyRestWorld(rig.bodies, boneRestWorld(rig.skeleton.bones));
/** Angle (rad) between two rotations, accurate near 0 (acos of a dot product is not: files round to 1e-9). */
function quatAngleBetween(a: ReadonlyQuat, b: ReadonlyQuat): number {
  const d = quatMul(quatConj(quatNormalize(a)), quatNormalize(b));
  return 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3]));
}
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Per joint, the gap (m) between its two frames' anchors and the angle (rad) between their axes at rest. */
function frameGaps(rig: RigDocument): { position: number; angle: number }[] {
  const world = bodiesWorld(rig);
  return rig.joints.map((j) => {
    const a = composeTransforms(world.get(j.bodyA)!, { position: j.frameA.position as Vec3, rotation: j.frameA.rotation });
    const b = composeTransforms(world.get(j.bodyB)!, { position: j.frameB.position as Vec3, rotation: j.frameB.rotation });
    return { position: dist(a.position, b.position), angle: quatAngleBetween(a.rotation, b.rotation) };
  });
}

/** Largest anchor gap (m) of `rig`; and the joints' rest angles between the frames are those of `source`. */
function anchorGap(rig: RigDocument, source: RigDocument): number {
  const gaps = frameGaps(rig), before = frameGaps(source);
  for (const [i, g] of gaps.entries()) expect(Math.abs(g.angle - before[i]!.angle)).toBeLessThan(2e-6);
  return Math.max(...gaps.map((g) => g.position));
}

function readRig(file: string): RigDocument {
  const check = validateRig(readFileSync(file, 'utf8'));
  if (!check.ok) throw new Error(JSON.stringify(check.problems.slice(0, 5)));
  return check.rig;
}

describe('transferRig', () => {
  it('onto its own skeleton gives back the same rig', () => {
    const r = transferRig(humanoid, humanoid.skeleton.bones);
    expect(r.unmatched).toEqual([]);
    expect(r.matched.every((m) => m.kind === 'exact' && m.from === m.to)).toBe(true);
    for (const [i, b] of r.rig.bodies.entries()) {
      const src = humanoid.bodies[i]!;
      expect(dist(b.offset.position, src.offset.position)).toBeLessThan(1e-9);
      expect(b.mass).toBeCloseTo(src.mass!, 9);
      expect(b.shapes).toEqual(src.shapes);
    }
    for (const [i, j] of r.rig.joints.entries()) {
      expect(dist(j.frameA.position, humanoid.joints[i]!.frameA.position)).toBeLessThan(1e-9);
      expect(quatAngleBetween(j.frameA.rotation, humanoid.joints[i]!.frameA.rotation)).toBeLessThan(2e-6);
    }
  });

  it('onto the skeleton at half size: bodies at half the distances, masses x1/8, torques and gains x1/16', () => {
    const half = humanoid.skeleton.bones.map((b) => ({ ...b, rest: { ...b.rest, translation: b.rest.translation.map((x) => x / 2) as Vec3 } }));
    const r = transferRig(humanoid, half);
    const before = bodiesWorld(humanoid), after = bodiesWorld(r.rig);
    for (const b of humanoid.bodies) {
      expect(r.scale[b.name]).toBeCloseTo(0.5, 9);
      expect(dist(after.get(b.name)!.position, before.get(b.name)!.position.map((x) => x / 2))).toBeLessThan(1e-9);
    }
    expect(r.rig.bodies[0]!.mass).toBeCloseTo(humanoid.bodies[0]!.mass! / 8, 9);
    const j0 = humanoid.joints[0]!, t0 = r.rig.joints[0]!;
    if (!('motor' in j0) || !('motor' in t0)) throw new Error('the humanoid\'s first joint has a motor');
    expect(t0.motor.maxTorque).toBeCloseTo(j0.motor.maxTorque / 16, 9);
    expect(t0.motor.stiffness).toBeCloseTo(j0.motor.stiffness / 16, 9);
    expect(anchorGap(r.rig, humanoid)).toBeLessThan(1e-9);
    expect(validateRig(r.rig).ok).toBe(true);
  });

  it('a renamed bone is listed as unmatched, its body and joints reported, nothing else lost', () => {
    const renamed = humanoid.skeleton.bones.map((b) => (b.name === 'foot_l' ? { ...b, name: 'stump_q' } : b));
    const r = transferRig(humanoid, renamed);
    expect(r.unmatched).toEqual(['foot_l']);
    expect(r.dropped.map((d) => `${d.kind}:${d.name}`)).toEqual(['body:foot_l', 'joint:foot_l']);
    expect(r.dropped[0]!.reason).toMatch(/bone "foot_l" has no match/);
    expect(r.rig.bodies.length).toBe(humanoid.bodies.length - 1);
    expect(r.rig.joints.length).toBe(humanoid.joints.length - 1);
    expect(validateRig(r.rig).ok).toBe(true);
  });

  it('bones whose frames point another way (another tool\'s conventions) give the same bodies in the world', () => {
    // Every bone's frame turned by its own rotation q, its children compensated: same joints in the world.
    const turns = new Map(humanoid.skeleton.bones.map((b, i) => [b.name, quatNormalize([Math.sin(i + 1), Math.cos(2 * i), 0.3 * i - 1, 1.5])]));
    const parentTurn = (b: { parent: string | null }) => (b.parent === null ? [0, 0, 0, 1] as const : turns.get(b.parent)!);
    const turned = humanoid.skeleton.bones.map((b) => {
      const up = quatConj(parentTurn(b));
      return { ...b, rest: { ...b.rest, translation: quatRotate(up, b.rest.translation), rotation: quatMul(quatMul(up, b.rest.rotation), turns.get(b.name)!) } };
    });
    const r = transferRig(humanoid, turned);
    const before = bodiesWorld(humanoid), after = bodiesWorld(r.rig);
    for (const [name, w] of before) {
      expect(dist(after.get(name)!.position, w.position)).toBeLessThan(1e-9);
      expect(quatAngleBetween(after.get(name)!.rotation, w.rotation)).toBeLessThan(1e-9);
    }
    expect(anchorGap(r.rig, humanoid)).toBeLessThan(1e-9);
  });

  it('carries controllers, their paths scaled with the limb (Armed Mine at 2x)', () => {
    const mine = JSON.parse(readFileSync(`${repo}assets/creatures/armed-mine.rig.json`, 'utf8')) as RigDocument;
    expect(mine.controllers.length).toBeGreaterThan(0);
    const twice = mine.skeleton.bones.map((b) => ({ ...b, rest: { ...b.rest, translation: b.rest.translation.map((x) => x * 2) as Vec3 } }));
    const r = transferRig(mine, twice);
    expect(r.dropped).toEqual([]);
    expect(r.rig.controllers.length).toBe(mine.controllers.length);
    const c0 = mine.controllers[0]!, t0 = r.rig.controllers[0]!;
    expect(dist(t0.controlPoints[0]!, c0.controlPoints[0]!.map((x) => 2 * x))).toBeLessThan(1e-9);
    expect(dist(t0.effector.offset, c0.effector.offset.map((x) => 2 * x))).toBeLessThan(1e-9);
    expect(anchorGap(r.rig, mine)).toBeLessThan(1e-9);
    const check = validateRig(r.rig);
    if (!check.ok) throw new Error(JSON.stringify(check.problems.slice(0, 5)));
  });
});

describe('marionette transfer', () => {
  it('humanoid rig onto humanoid.fbx: same bodies within 1e-4 m, valid', async () => {
    const out = join(dir, 'humanoid-fbx.rig.json');
    const r = await runInProcess(['transfer', humanoidRig, '--creature', `${repo}assets/creatures/humanoid.fbx`, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/13 of 13 bones matched; 13 bodies, 12 joints/);
    expect(r.out).not.toMatch(/unmatched/);
    const rig = readRig(out);
    const before = bodiesWorld(humanoid), after = bodiesWorld(rig);
    expect(after.size).toBe(before.size);
    let worst = 0, worstAngle = 0;
    for (const [name, w] of before) {
      worst = Math.max(worst, dist(after.get(name)!.position, w.position));
      worstAngle = Math.max(worstAngle, quatAngleBetween(after.get(name)!.rotation, w.rotation));
    }
    expect(worst).toBeLessThan(1e-4);
    expect(worstAngle).toBeLessThan(1e-4);
    expect(anchorGap(rig, humanoid)).toBeLessThan(1e-6);
    for (const [i, b] of rig.bodies.entries()) expect(b.mass! / humanoid.bodies[i]!.mass!).toBeCloseTo(1, 3);
  }, 60_000);

  it('onto the Mixamo corpus creature (mixamorig: names, centimetre FBX): maps by the name map and validates', async () => {
    const file = `${repo}assets/third-party/synthetic/mixamo-cm.fbx`;
    const out = join(dir, 'mixamo.rig.json');
    const r = await runInProcess(['transfer', humanoidRig, '--creature', file, '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/13 of 13 bones matched/);
    expect(r.out).toMatch(/thigh_l +-> mixamorig:LeftUpLeg +anatomy/);
    expect(r.out).toMatch(/shin_r +-> mixamorig:RightLeg +anatomy/);
    expect(r.out).toMatch(/upper_arm_l +-> mixamorig:LeftArm +anatomy/);
    const rig = readRig(out);
    const { input } = await readCreatureInput(file);
    expect(rig.skeleton.bones.map((b) => b.name)).toEqual(input.bones.map((b) => b.name));
    expect(new Set(rig.bodies.map((b) => b.bone)).size).toBe(13);
    expect(anchorGap(rig, humanoid)).toBeLessThan(1e-6);
    // The corpus creature is the shipped humanoid renamed (in centimetres): the bodies land where the
    // humanoid's are.
    const before = bodiesWorld(humanoid), after = bodiesWorld(rig);
    for (const [name, w] of before) expect(dist(after.get(name)!.position, w.position)).toBeLessThan(1e-3);
  }, 60_000);

  it('onto the Unreal and Rigify corpus humanoids: every body finds its bone by the name maps, same places', async () => {
    for (const [file, expected] of [
      ['unreal-zup.glb', [/shin_l +-> calf_l +anatomy/, /forearm_r +-> lowerarm_r +anatomy/, /spine +-> spine_01 +anatomy/]],
      ['rigify-nonuniform.glb', [/pelvis +-> DEF-spine +anatomy/, /spine +-> DEF-spine\.003 +anatomy/, /head +-> DEF-spine\.006 +anatomy/, /thigh_l +-> DEF-thigh\.L +name/]],
    ] as const) {
      const out = join(dir, `${file}.rig.json`);
      const r = await runInProcess(['transfer', humanoidRig, '--creature', `${repo}assets/third-party/synthetic/${file}`, '--out', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/13 of 13 bones matched; 13 bodies, 12 joints/);
      for (const re of expected) expect(r.out).toMatch(re);
      const rig = readRig(out);
      const before = bodiesWorld(humanoid), after = bodiesWorld(rig);
      for (const [name, w] of before) expect(dist(after.get(name)!.position, w.position)).toBeLessThan(1e-4);
    }
  }, 60_000);

  it('lists an unmatched bone and the body and joint left out with it', async () => {
    const renamed = JSON.parse(JSON.stringify(humanoid).replaceAll('"foot_l"', '"stump_q"')) as RigDocument;
    const rigFile = join(dir, 'renamed.rig.json');
    writeFileSync(rigFile, JSON.stringify(renamed));
    const out = join(dir, 'renamed-out.rig.json');
    const r = await runInProcess(['transfer', rigFile, '--creature', `${repo}assets/creatures/humanoid.fbx`, '--out', out, '--quiet']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/unmatched: 1\n {2}stump_q\n/);
    expect(r.out).toMatch(/left out: body "stump_q": its bone "stump_q" has no match/);
    expect(r.out).toMatch(/left out: joint "stump_q": its body "stump_q" was left out/);
    expect(readRig(out).bodies.length).toBe(12);
  }, 60_000);

  it('refuses files it cannot use, naming them', async () => {
    const out = join(dir, 'never.rig.json');
    const missing = await runInProcess(['transfer', humanoidRig, '--creature', join(dir, 'nope.glb'), '--out', out]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.glb: no such file/);
    const bad = join(dir, 'bad.rig.json');
    writeFileSync(bad, '{"format": "marionette-rig"');
    const badRig = await runInProcess(['transfer', bad, '--creature', `${repo}assets/creatures/humanoid.fbx`, '--out', out]);
    expect(badRig.code).toBe(1);
    expect(badRig.err).toMatch(/bad\.rig\.json: not valid JSON/);
    const noOut = await runInProcess(['transfer', humanoidRig, '--creature', `${repo}assets/creatures/humanoid.fbx`]);
    expect(noOut.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
