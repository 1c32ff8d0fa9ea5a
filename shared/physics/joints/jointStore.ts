/**
 * The joints of a world: fixed-stride records in one Float64Array (layout in jointLayout.ts), handles by
 * slot + generation, and the solver stages that walk them in slot order (deterministic).
 */
import type { StepContext } from '../stepContext';
import { finishBall, prepareBall, solveBall, warmStartBall } from './ballJoint';
import { prepareFixed, solveFixed, warmStartFixed } from './fixedJoint';
import { finishHinge, prepareHinge, solveHinge, warmStartHinge } from './hingeJoint';
import {
  BODY_A, BODY_B, FLAG_LIMIT, FLAG_SWING, FLAG_TWIST, FLAGS, JOINT_BALL, JOINT_FIXED, JOINT_HINGE, STRIDE, TYPE,
} from './jointLayout';
import { activeMotorRows } from './motor';
import { finishPrismatic, preparePrismatic, solvePrismatic, warmStartPrismatic } from './prismaticJoint';

export class JointStore {
  capacity = 0;
  count = 0;
  data = new Float64Array(0);
  alive = new Uint8Array(0);
  generation = new Uint32Array(0);
  names: string[] = [];
  free: number[] = [];

  constructor(initialCapacity = 64) { this.grow(initialCapacity); }

  grow(capacity: number): void {
    const d = new Float64Array(capacity * STRIDE); d.set(this.data); this.data = d;
    const a = new Uint8Array(capacity); a.set(this.alive); this.alive = a;
    const g = new Uint32Array(capacity); g.set(this.generation); this.generation = g;
    this.capacity = capacity;
  }

  allocate(): number {
    if (this.free.length > 0) { this.free.sort((a, b) => b - a); return this.free.pop()!; }
    if (this.count >= this.capacity) this.grow(this.capacity * 2);
    return this.count++;
  }

  release(j: number): void {
    this.alive[j] = 0;
    this.generation[j] = (this.generation[j]! + 1) >>> 0;
    this.data.fill(0, j * STRIDE, (j + 1) * STRIDE);
    this.names[j] = '';
    this.free.push(j);
  }
}

/** Stage "prepare joints": frames, arms, effective masses, errors, motor targets. Returns the row count. */
export function prepareJoints(ctx: StepContext, js: JointStore): number {
  const J = ctx.joints;
  let rows = 0;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, iA = J[o + BODY_A]!, iB = J[o + BODY_B]!, t = J[o + TYPE]!, f = J[o + FLAGS]!;
    if (t === JOINT_BALL) {
      prepareBall(ctx, o, iA, iB);
      rows += 3 + activeMotorRows(J, o, 3) + (f & FLAG_TWIST ? 2 : 0) + (f & FLAG_SWING ? 1 : 0);
    } else if (t === JOINT_HINGE) {
      prepareHinge(ctx, o, iA, iB);
      rows += 5 + activeMotorRows(J, o, 1) + (f & FLAG_LIMIT ? 2 : 0);
    } else if (t === JOINT_FIXED) {
      prepareFixed(ctx, o, iA, iB);
      rows += 6;
    } else {
      preparePrismatic(ctx, o, iA, iB);
      rows += 5 + activeMotorRows(J, o, 1) + (f & FLAG_LIMIT ? 2 : 0);
    }
  }
  return rows;
}

export function warmStartJoints(ctx: StepContext, js: JointStore): void {
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, iA = J[o + BODY_A]!, iB = J[o + BODY_B]!, t = J[o + TYPE]!;
    if (t === JOINT_BALL) warmStartBall(ctx, o, iA, iB);
    else if (t === JOINT_HINGE) warmStartHinge(ctx, o, iA, iB);
    else if (t === JOINT_FIXED) warmStartFixed(ctx, o, iA, iB);
    else warmStartPrismatic(ctx, o, iA, iB);
  }
}

/** The joints' velocity solve (each joint's rows once) over the slots order[from..to), in that order (one island). */
export function solveJointList(ctx: StepContext, order: Int32Array, from: number, to: number, useBias: boolean): void {
  const J = ctx.joints;
  for (let n = from; n < to; n++) {
    const o = order[n]! * STRIDE, iA = J[o + BODY_A]!, iB = J[o + BODY_B]!, t = J[o + TYPE]!;
    if (t === JOINT_BALL) solveBall(ctx, o, iA, iB, useBias);
    else if (t === JOINT_HINGE) solveHinge(ctx, o, iA, iB, useBias);
    else if (t === JOINT_FIXED) solveFixed(ctx, o, iA, iB, useBias);
    else solvePrismatic(ctx, o, iA, iB, useBias);
  }
}

/** Stage "store impulses": the motor report of this substep (torque = |λ_acc|/h, saturation). */
export function finishJoints(ctx: StepContext, js: JointStore): void {
  const J = ctx.joints;
  for (let j = 0; j < js.count; j++) {
    if (js.alive[j] === 0) continue;
    const o = j * STRIDE, t = J[o + TYPE]!;
    if (t === JOINT_BALL) finishBall(ctx, o);
    else if (t === JOINT_HINGE) finishHinge(ctx, o);
    else if (t !== JOINT_FIXED) finishPrismatic(ctx, o);
  }
}
