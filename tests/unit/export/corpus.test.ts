/**
 * The real-creature corpus (assets/third-party/corpus.json, rigs made by Generate at each creature's real
 * height, as tests/unit/authoring/corpus.test.ts makes them) exported to MJCF: MuJoCo loads every one with
 * a body per body, the joints and an actuator per motorised DOF, with our masses, and runs 2 s with
 * finite state; and to glTF (on the creature's own file when it is a glTF in metres), which the Khronos
 * validator accepts with 0 errors and which imports back with its bodies and joints. (Whether a creature
 * stands is the corpus test's business; this is about the files.)
 */
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { writeGlb } from '../../../shared/export/gltf';
import { importGltfBytes } from '../../../shared/export/gltfImport';
import type { RigDocument } from '../../../shared/rig';
import { generateRagdoll, newRigDocument, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../../../shared/authoring';
import { writeMjcf } from '../../../shared/export/mjcf';
import { bodyMassProperties } from '../../../shared/export/rig';
import { validateRig } from '../../../shared/rig';
import { readCreatureInput } from '../../../cli/commands/generate';
import { corpus, type CorpusEntry } from '../../../scripts/corpus-report';
import { repo } from '../rig/corpus';
import { loadMjcf } from './mujoco';
import { validateGlb } from './validator';

async function generated(entry: CorpusEntry): Promise<RigDocument> {
  const { input: raw } = await readCreatureInput(repo + entry.file);
  const scale = scaleForHeight(raw, entry.heightMetres);
  const input = scaleSkeleton(raw, scale);
  const draft = withGeneratedRagdoll({ ...newRigDocument(entry.name, input.bones), skeleton: { bones: [...input.bones], scale } }, generateRagdoll(input));
  const valid = validateRig(draft);
  if (!valid.ok) throw new Error(`${entry.name}: the generated rig is invalid`);
  return valid.rig;
}

describe.each(corpus())('$name (generated rig)', (entry) => {
  const rigOf = generated(entry);

  it('→ glTF: 0 validator errors, imports back with its bodies and joints', async () => {
    const rig = await rigOf;
    const inMetres = (rig.skeleton.scale ?? 1) === 1 && /\.(glb|gltf)$/i.test(entry.file);
    const creature = inMetres ? await new NodeIO().read(repo + entry.file) : undefined;
    const glb = await writeGlb(rig, { creature });
    const report = await validateGlb(glb);
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages.filter((m) => m.severity === 0).slice(0, 3))).toBe(0);
    const { rig: back } = await importGltfBytes(glb, entry.name);
    expect(back.bodies.map((b) => b.name)).toEqual(rig.bodies.map((b) => b.name));
    expect(back.joints.map((j) => j.name)).toEqual(rig.joints.map((j) => j.name));
  }, 60_000);

  it('→ MJCF: MuJoCo loads it (bodies, joints, actuators, masses) and runs 2 s with finite state', async () => {
    const rig = await rigOf;
    const { mj, model, data } = await loadMjcf(writeMjcf(rig), entry.name);
    expect(model.nbody).toBe(rig.bodies.length + 1);
    const roots = rig.bodies.filter((b) => b.type === 'dynamic' && !rig.joints.some((j) => j.bodyB === b.name)).length;
    expect(model.njnt).toBe(rig.joints.filter((j) => j.type !== 'fixed').length + roots);
    expect(model.nu).toBe(rig.joints.reduce((n, j) => n + (j.type !== 'fixed' && j.motor.mode !== 'off' && j.motor.maxTorque > 0 ? (j.type === 'ball' ? 3 : 1) : 0), 0));
    let ours = 0, theirs = 0;
    for (let i = 1; i < model.nbody; i++) theirs += model.body_mass[i]!;
    for (const b of rig.bodies) ours += bodyMassProperties(b).mass;
    expect(Math.abs(theirs - ours) / ours).toBeLessThan(1e-9);
    while (data.time < 2) mj.mj_step(model, data);
    expect(Array.from(data.qpos).every(Number.isFinite)).toBe(true);
    expect(Array.from(data.qvel).every(Number.isFinite)).toBe(true);
    model.delete(); data.delete();
  }, 60_000);
});
