/**
 * MuJoCo (the official WebAssembly build, npm mujoco-js) as a benchmark engine: the scene becomes a rig
 * (sceneRig.ts) and the rig MJCF through shared/export/mjcf.ts — the same writer users export
 * with — so the figures are MuJoCo running what Marionette exports. MuJoCo is Z-up: poses are turned back
 * into the scene's +Y-up frame.
 */
import loadMujoco from 'mujoco-js';
import { fromZUp, writeMjcf, Y_UP_TO_Z_UP } from '../shared/export/mjcf';
import { quatConj, quatMul, type Quat } from '../shared/math/quat';
import type { Vec3 } from '../shared/math/vec3';
import type { BenchEngine, BenchWorld } from './engine';
import type { BenchScene } from './scene';
import { benchSceneRig, sceneBodyName } from './sceneRig';

interface Mj {
  FS: { mkdir(p: string): void; writeFile(p: string, s: string): void; unlink(p: string): void };
  MjModel: { loadFromXML(path: string): MjModel };
  MjData: new (m: MjModel) => MjData;
  mj_step(m: MjModel, d: MjData): void;
  mj_forward(m: MjModel, d: MjData): void;
  mj_name2id(m: MjModel, type: number, name: string): number;
}
interface MjModel { opt: { timestep: number }; body_mass: Float64Array; geom_bodyid: Int32Array; delete(): void }
interface MjData { xpos: Float64Array; xquat: Float64Array; ncon: number; contact: { get(i: number): { geom1: number; geom2: number } | undefined }; delete(): void }

const OBJ_BODY = 1;
const FROM_Z_UP = quatConj(Y_UP_TO_Z_UP);
let files = 0;

export async function loadMujocoEngine(): Promise<BenchEngine> {
  const mj = (await loadMujoco()) as unknown as Mj;
  mj.FS.mkdir('/bench');
  return { name: 'mujoco', create: (scene) => createMujocoWorld(mj, scene) };
}

function createMujocoWorld(mj: Mj, scene: BenchScene): BenchWorld {
  const rig = benchSceneRig(scene, 1);
  const path = `/bench/scene${files++}.xml`;
  mj.FS.writeFile(path, writeMjcf(rig, { lossComment: false }));
  let model: MjModel;
  try { model = mj.MjModel.loadFromXML(path); } catch (e) { throw new Error(`MuJoCo refused the MJCF of ${scene.name}: ${String(e)}`); }
  mj.FS.unlink(path);
  const data = new mj.MjData(model);
  mj.mj_forward(model, data); // poses (xpos, xquat) of the rest configuration before the first step
  const ids = scene.bodies.map((b) => mj.mj_name2id(model, OBJ_BODY, sceneBodyName(b.name, b.copy)));
  return {
    engine: 'mujoco',
    settings: `MuJoCo (mujoco-js) on the MJCF of shared/export/mjcf.ts: timestep=${model.opt.timestep} s (one step per scene step), integrator implicitfast, solver defaults; motors position actuators (kp, kv, forcerange)`,
    step: () => mj.mj_step(model, data),
    getPose(i: number, outPosition: Vec3, outRotation: Quat) {
      const id = ids[i]!, p = data.xpos, q = data.xquat;
      const w = fromZUp([p[3 * id]!, p[3 * id + 1]!, p[3 * id + 2]!]);
      outPosition[0] = w[0]; outPosition[1] = w[1]; outPosition[2] = w[2];
      const r = quatMul(FROM_Z_UP, [q[4 * id + 1]!, q[4 * id + 2]!, q[4 * id + 3]!, q[4 * id]!]);
      outRotation[0] = r[0]; outRotation[1] = r[1]; outRotation[2] = r[2]; outRotation[3] = r[3];
    },
    getMass: (i: number) => model.body_mass[ids[i]!]!,
    inContact(i: number, j: number) {
      const a = ids[i]!, b = ids[j]!;
      for (let k = 0; k < data.ncon; k++) {
        const c = data.contact.get(k);
        if (!c) continue;
        const ba = model.geom_bodyid[c.geom1]!, bb = model.geom_bodyid[c.geom2]!;
        if ((ba === a && bb === b) || (ba === b && bb === a)) return true;
      }
      return false;
    },
    rowIterations: () => null,
    dispose: () => { data.delete(); model.delete(); },
  };
}
