/** A mine-like arm for the IK tests: shoulder on the front of a 0.35 m ball, arm along +Z at rest. */
import type { Chain } from '../../../shared/ik/chain';
import { quatFromTo, quatFromAxisAngle, quatMul, type Quat } from '../../../shared/math/quat';

export const UPPER = 0.45, FORE = 0.4, HAND = 0.12;
export const SHOULDER: [number, number, number] = [0, 0.1, 0.3];
const alongZ = quatFromTo([1, 0, 0], [0, 0, 1]); // ball twist axis (frame X) along the bone

/**
 * @param frameTwist extra rotation of all joint frames about their own X axis — the math must not
 *   depend on how the Y/Z reference axes happen to be chosen.
 */
export function mineArm(frameTwist = 0): Chain {
  const tw: Quat = quatFromAxisAngle([1, 0, 0], frameTwist);
  const ball = quatMul(alongZ, tw);
  const hinge = tw; // hinge axis = world X at rest: the arm bends in the YZ plane
  // Bodies: upper arm centred at SHOULDER + (0,0,UPPER/2), forearm and hand likewise; body frames = world axes.
  return {
    joints: [
      { type: 'ball', frameA: { position: SHOULDER, rotation: ball }, frameB: { position: [0, 0, -UPPER / 2], rotation: ball },
        twistLimit: [-1.2, 1.2], swingLimit: [2.2, 2.2] },
      { type: 'hinge', frameA: { position: [0, 0, UPPER / 2], rotation: hinge }, frameB: { position: [0, 0, -FORE / 2], rotation: hinge },
        limit: [0, 2.6] },
      { type: 'hinge', frameA: { position: [0, 0, FORE / 2], rotation: hinge }, frameB: { position: [0, 0, -HAND / 2], rotation: hinge },
        limit: [-0.3, 1.8] },
    ],
    effector: [0, 0, HAND / 2],
  };
}
