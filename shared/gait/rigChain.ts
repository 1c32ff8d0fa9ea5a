/**
 * From the RigDocument to what the controller needs: the IK chain (joint frames and limits exactly as the
 * physics joints have them) and the controller parameters. Names are resolved here once; the controller
 * then works on handles.
 */
import type { Chain, ChainJoint } from '../ik/chain';
import type { CyclicPathController as CyclicPathControllerDoc, RigDocument } from '../rig/schema';
import type { CyclicPathParams } from './controller';

/** The IK chain of a cyclicPath controller. Throws naming the controller and field when a name is unknown. */
export function chainFromRig(rig: RigDocument, controller: CyclicPathControllerDoc): Chain {
  const at = `controllers["${controller.name}"]`;
  const joints: ChainJoint[] = controller.chain.map((name, k) => {
    const j = rig.joints.find((x) => x.name === name);
    if (!j) throw new Error(`${at}.chain[${k}]: no joint named "${name}"`);
    if (j.type === 'ball') {
      return { type: 'ball', name, frameA: j.frameA, frameB: j.frameB, twistLimit: j.twistLimit ?? undefined, swingLimit: j.swingLimit ?? undefined };
    }
    if (j.type === 'hinge') return { type: 'hinge', name, frameA: j.frameA, frameB: j.frameB, limit: j.limit ?? undefined };
    throw new Error(`${at}.chain[${k}]: joint "${name}" is a ${j.type} joint; the IK drives ball and hinge joints`);
  });
  return { joints, effector: controller.effector.offset };
}

export function paramsFromRig(controller: CyclicPathControllerDoc): CyclicPathParams {
  return {
    name: controller.name,
    controlPoints: controller.controlPoints,
    rate: controller.rate,
    phaseOffset: controller.phaseOffset,
    interpolation: controller.interpolation,
    pole: controller.pole,
    steering: controller.steering,
    ...(controller.righting ? { righting: controller.righting } : {}),
    enabled: controller.enabled,
  };
}
