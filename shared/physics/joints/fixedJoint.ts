/**
 * Fixed (weld) joint: 6 rows = the point block (3) + an angular lock (3) with
 *     C = rotvec(q_FB · q_FA⁻¹)  (world, rad),   J = [0 −E 0 E]  so Ċ = ω_B − ω_A,
 * solved as one 3×3 block with K = I_A⁻¹ + I_B⁻¹. No free axis, so no motor and no limit.
 */
import type { StepContext } from '../stepContext';
import { AC, AI, AX1, AX2, AX3, PI } from './jointLayout';
import type { JointTypeDef } from './jointType';
import { relativeRotationVector } from './ballJoint';
import { shakeLock, shakePoint } from './positionCorrection';
import { projectLock, projectPoint } from './positionProjection';
import {
  computeFrames, pointError, preparePoint, prepareAngularLock, rotationVectorPast, solveAngularLock, solvePoint,
  warmStartAngularLock, warmStartPoint,
} from './rows';

/** Angular lock error rotvec(qFB·conj(qFA)) (world) into J[o+AC..], with the world axes as rows, from the
 *  current frames (also the prismatic joint's lock). */
export function prepareRotationLock(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints, tv = ctx.scratch.tv;
  rotationVectorPast(ctx.scratch.tv, ctx.scratch.qFB, 0, ctx.scratch.qFA, 0); // rotvec(qFB·conj(qFA)), world
  J[o + AC] = tv[0]!; J[o + AC + 1] = tv[1]!; J[o + AC + 2] = tv[2]!;
  J[o + AX1] = 1; J[o + AX1 + 1] = 0; J[o + AX1 + 2] = 0;
  J[o + AX2] = 0; J[o + AX2 + 1] = 1; J[o + AX2 + 2] = 0;
  J[o + AX3] = 0; J[o + AX3 + 1] = 0; J[o + AX3 + 2] = 1;
  prepareAngularLock(ctx, o, iA, iB, 3);
}

export const fixedJoint: JointTypeDef<'fixed'> = {
  name: 'fixed',
  code: 2,
  freeAxes: [],
  motorRows: 0,
  motorTarget: 'none',
  impulses: [PI, PI + 1, PI + 2, AI, AI + 1, AI + 2],
  validate(): void { /* no fields of its own */ },
  configure(): number { return 0; },
  init(): void { /* nothing to measure */ },
  prepare(ctx: StepContext, o: number, iA: number, iB: number): number {
    computeFrames(ctx, o, iA, iB);
    preparePoint(ctx, o, iA, iB);
    prepareRotationLock(ctx, o, iA, iB);
    return 6;
  },
  warmStart(ctx: StepContext, o: number, iA: number, iB: number): void {
    warmStartAngularLock(ctx, o, iA, iB, 3);
    warmStartPoint(ctx, o, iA, iB);
  },
  solve(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
    solveAngularLock(ctx, o, iA, iB, 3, useBias);
    solvePoint(ctx, o, iA, iB, useBias);
  },
  project(ctx: StepContext, o: number, iA: number, iB: number): void {
    computeFrames(ctx, o, iA, iB); prepareRotationLock(ctx, o, iA, iB); projectLock(ctx, o, iA, iB, 3);
    projectPoint(ctx, o, iA, iB);
  },
  correct(ctx: StepContext, o: number, iA: number, iB: number, first: boolean): void {
    const s = ctx.scratch, ce = s.ce, tv = s.tv;
    computeFrames(ctx, o, iA, iB);
    rotationVectorPast(ctx.scratch.tv, ctx.scratch.qFB, 0, ctx.scratch.qFA, 0); // rotvec(qFB·conj(qFA)), world
    ce[0] = tv[0]!; ce[1] = tv[1]!; ce[2] = tv[2]!;
    shakeLock(ctx, o, iA, iB, 3, first);
    shakePoint(ctx, o, iA, iB, first);
  },
  finish(): void { /* no motor */ },
  position: relativeRotationVector,
  anchorError: pointError,
};
