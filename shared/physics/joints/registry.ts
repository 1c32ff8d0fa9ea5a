/**
 * The joint types, in one table: JOINT_TYPES[code] is the type whose records carry J[o + TYPE] = code. The
 * World (addJoint, motor targets, queries), the JointStore's stages (prepare, warm start, solve, finish) and
 * both position corrections dispatch through it and nowhere else on the type (jointType.ts says what a type
 * provides). A new type: its own file exporting a JointTypeDef with the next code, one registerJointType
 * line here, its JointDesc variant in types.ts — and above the physics the rig schema and the editor's type
 * list.
 */
import type { JointType } from '../types';
import { ballJoint } from './ballJoint';
import { cylindricalJoint, planarJoint, screwJoint } from './coupledJoint';
import { fixedJoint } from './fixedJoint';
import { hingeJoint } from './hingeJoint';
import type { JointTypeDef } from './jointType';
import { prismaticJoint } from './prismaticJoint';

const table: JointTypeDef[] = [];
const BY_NAME = new Map<string, JointTypeDef>();

/** The table the solver dispatches through, indexed by J[o + TYPE]. */
export const JOINT_TYPES: readonly JointTypeDef[] = table;
/** The names in code order, for messages. */
export const JOINT_TYPE_NAMES: readonly JointType[] = [];

/** Add a type: its code must be the next free one and its name new. Types register once, at load time,
 *  before any World exists (a world built earlier would not know records of a later type). */
export function registerJointType(def: JointTypeDef): void {
  if (def.code !== table.length) throw new Error(`joint type '${def.name}' has code ${def.code}; the next free code is ${table.length}`);
  if (BY_NAME.has(def.name)) throw new Error(`joint type '${def.name}' is already registered`);
  table.push(def);
  BY_NAME.set(def.name, def);
  (JOINT_TYPE_NAMES as JointType[]).push(def.name);
}

registerJointType(ballJoint);
registerJointType(hingeJoint);
registerJointType(fixedJoint);
registerJointType(prismaticJoint);
registerJointType(screwJoint);
registerJointType(cylindricalJoint);
registerJointType(planarJoint);

/** The type called `name`, or an Error naming the joint (`label`) and the known types. */
export function jointTypeDef(name: unknown, label: string): JointTypeDef {
  const def = typeof name === 'string' ? BY_NAME.get(name) : undefined;
  if (def) return def;
  const list = JOINT_TYPE_NAMES.map((n) => `'${n}'`);
  const known = list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}` : list[0];
  throw new Error(`${label}: type must be ${known}, got '${String(name)}'`);
}
