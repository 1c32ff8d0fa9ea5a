/** MuJoCo (the official WebAssembly build, npm mujoco-js) as a judge of exported MJCF. */
import loadMujoco from 'mujoco-js';

// The typings of mujoco-js mark most arrays as `any`; this is the part the tests read.
export interface Mj {
  FS: { mkdir(p: string): void; writeFile(p: string, s: string): void };
  MjModel: { loadFromXML(path: string): MjModel };
  MjData: new (m: MjModel) => MjData;
  mj_step(m: MjModel, d: MjData): void;
  mj_forward(m: MjModel, d: MjData): void;
  mj_resetDataKeyframe(m: MjModel, d: MjData, key: number): void;
  mj_name2id(m: MjModel, type: number, name: string): number;
}
export interface MjModel {
  nbody: number; njnt: number; nu: number; nq: number; nv: number; nkey: number;
  opt: { timestep: number; gravity: Float64Array };
  body_mass: Float64Array; body_inertia: Float64Array; body_ipos: Float64Array; jnt_type: Int32Array; jnt_range: Float64Array;
  actuator_forcerange: Float64Array;
  delete(): void;
}
export interface MjData {
  qpos: Float64Array; qvel: Float64Array; ctrl: Float64Array; xpos: Float64Array; xquat: Float64Array; time: number;
  actuator_force: Float64Array;
  delete(): void;
}
export const OBJ_BODY = 1, OBJ_JOINT = 3;

let mujoco: Promise<Mj> | null = null;
let files = 0;

export function getMujoco(): Promise<Mj> {
  mujoco ??= (loadMujoco() as unknown as Promise<Mj>).then((mj) => { mj.FS.mkdir('/export'); return mj; });
  return mujoco;
}

/** Load MJCF text into MuJoCo; a refusal names the model and MuJoCo's error. */
export async function loadMjcf(xml: string, what: string): Promise<{ mj: Mj; model: MjModel; data: MjData }> {
  const mj = await getMujoco();
  const path = `/export/m${files++}.xml`;
  mj.FS.writeFile(path, xml);
  let model: MjModel;
  try {
    model = mj.MjModel.loadFromXML(path);
  } catch (e) {
    throw new Error(`MuJoCo refused the MJCF of ${what}: ${String(e)}`);
  }
  return { mj, model, data: new mj.MjData(model) };
}
