/**
 * Fixed (weld) joint: 6 rows = the point block (3) + an angular lock (3) with
 *     C = rotvec(q_FB · q_FA⁻¹)  (world, rad),   J = [0 −E 0 E]  so Ċ = ω_B − ω_A,
 * solved as one 3×3 block with K = I_A⁻¹ + I_B⁻¹.
 */
import type { StepContext } from '../stepContext';
import { AC, AX1, AX2, AX3 } from './jointLayout';
import { rotationVector } from './ballJoint';
import {
  computeFrames, preparePoint, prepareAngularLock, qFA, qFB, solveAngularLock, solvePoint, tv, warmStartAngularLock,
  warmStartPoint,
} from './rows';

/** Angular lock error rotvec(qFB·conj(qFA)) (world) into J[o+AC..], with the world axes as rows. */
export function prepareRotationLock(ctx: StepContext, o: number, iA: number, iB: number): void {
  const J = ctx.joints;
  const ax = -qFA[0]!, ay = -qFA[1]!, az = -qFA[2]!, aw = qFA[3]!;
  const bx = qFB[0]!, by = qFB[1]!, bz = qFB[2]!, bw = qFB[3]!;
  rotationVector(
    bw * ax + bx * aw + by * az - bz * ay,
    bw * ay - bx * az + by * aw + bz * ax,
    bw * az + bx * ay - by * ax + bz * aw,
    bw * aw - bx * ax - by * ay - bz * az);
  J[o + AC] = tv[0]!; J[o + AC + 1] = tv[1]!; J[o + AC + 2] = tv[2]!;
  J[o + AX1] = 1; J[o + AX1 + 1] = 0; J[o + AX1 + 2] = 0;
  J[o + AX2] = 0; J[o + AX2 + 1] = 1; J[o + AX2 + 2] = 0;
  J[o + AX3] = 0; J[o + AX3 + 1] = 0; J[o + AX3 + 2] = 1;
  prepareAngularLock(ctx, o, iA, iB, 3);
}

export function prepareFixed(ctx: StepContext, o: number, iA: number, iB: number): void {
  computeFrames(ctx, o, iA, iB);
  preparePoint(ctx, o, iA, iB);
  prepareRotationLock(ctx, o, iA, iB);
}

export function warmStartFixed(ctx: StepContext, o: number, iA: number, iB: number): void {
  warmStartAngularLock(ctx, o, iA, iB, 3);
  warmStartPoint(ctx, o, iA, iB);
}

export function solveFixed(ctx: StepContext, o: number, iA: number, iB: number, useBias: boolean): void {
  solveAngularLock(ctx, o, iA, iB, 3, useBias);
  solvePoint(ctx, o, iA, iB, useBias);
}
