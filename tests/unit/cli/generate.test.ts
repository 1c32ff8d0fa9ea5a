/** marionette generate on real files in a temp folder: scale flagged and fixed, FBX in centimetres,
 *  the merged bones and the mass summary printed, the rig written atomically and valid, bad files refused. */
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureSkeleton, scaleProblem, scaleSkeleton } from '../../../shared/authoring';
import { boneRestWorld } from '../../../shared/rig/restPose';
import { validateRig } from '../../../shared/rig';
import { readCreatureInput } from '../../../cli/commands/generate';
import { runInProcess } from './run';
import { repo } from '../rig/corpus';

const dir = mkdtempSync(join(tmpdir(), 'marionette-generate-'));
const fox = `${repo}assets/third-party/Fox/Fox.glb`;

describe('marionette generate', () => {
  it('flags the Fox (authored ~80 units tall) and names the fix', async () => {
    const { input } = await readCreatureInput(fox);
    const problem = scaleProblem(input, 'Fox.glb');
    expect(problem).not.toBeNull();
    expect(problem!.height).toBeGreaterThan(70);
    expect(problem!.suggestedScale).toBe(0.01);
    const out = join(dir, 'fox.rig.json');
    const r = await runInProcess(['generate', fox, '--out', out, '--quiet']);
    expect(r.out).toMatch(/Fox\.glb: 79\.0 m tall .* Use --height H or --scale 0\.01\./);
    // An 80 m fox weighs thousands of tonnes: past the format's bounds, so nothing is written.
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/at 79\.0 m tall the rig leaves the format's physical bounds; rescale it with --height H .* or --scale 0\.01/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('--height rescales to the given height within 1 % and the rig records the scale', async () => {
    const out = join(dir, 'fox-08.rig.json');
    const r = await runInProcess(['generate', fox, '--height', '0.8', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toMatch(/m tall/); // no scale warning once rescaled
    const check = validateRig(readFileSync(out, 'utf8'));
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    const { input } = await readCreatureInput(fox);
    expect(check.rig.skeleton.scale! * measureSkeleton(input).height).toBeCloseTo(0.8, 9);
    expect(Math.abs(measureSkeleton(scaleSkeleton(input, check.rig.skeleton.scale!)).height - 0.8) / 0.8).toBeLessThan(0.01);
    // The rig's bones are in metres: the skeleton spans less than the mesh (0.8 m), more than half of it.
    const ys = [...boneRestWorld(check.rig.skeleton.bones).values()].map((b) => b.position[1]);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(0.4);
    expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(0.8);
    // A fox of 0.8 m weighs tens of kilograms (volume × density of its fitted shapes), not the ~90 000
    // tonnes of an 80 m one.
    const mass = check.rig.bodies.reduce((s, b) => s + b.mass!, 0);
    expect(mass).toBeGreaterThan(5);
    expect(mass).toBeLessThan(150);
    // Written atomically: no temp file left beside it.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  }, 60_000);

  it('reads an FBX in centimetres in metres, recognises Mixamo names and says what it merged', async () => {
    const out = join(dir, 'mixamo.rig.json');
    const r = await runInProcess(['generate', `${repo}assets/third-party/synthetic/mixamo-cm.fbx`, '--out', out, '--check']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/height 1\.80\d m/);
    expect(r.out).toMatch(/mass: 70\.00 kg, a recognised biped/);
    expect(r.out).toMatch(/mixamorig:HeadTop_End\s+-> mixamorig:Head\s+end bone/);
    expect(r.out).toMatch(/IK, pole, control or helper bone/);
    expect(r.out).toMatch(/powered 5 s: no blow-up, top body (9\d|100) % of its start at its lowest/);
    expect(r.out).toMatch(/limp 5 s: no blow-up/);
    expect(validateRig(readFileSync(out, 'utf8')).ok).toBe(true);
  }, 60_000);

  it('refuses a file it cannot use with a message naming it, and writes nothing', async () => {
    const bad = join(dir, 'broken.glb');
    writeFileSync(bad, 'not a glb at all');
    const out = join(dir, 'never.rig.json');
    const r = await runInProcess(['generate', bad, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/broken\.glb/);
    expect(existsSync(out)).toBe(false);
    const usage = await runInProcess(['generate', fox, '--out', out, '--height=-2']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/--height must be a positive number of metres, got "-2"/);
    expect((await runInProcess(['generate', fox])).err).toMatch(/needs --out FILE/);
  }, 60_000);
});
