/** Relaxation iterations per step when a scene is built without saying (20: with it a 14-bone ragdoll's
 *  bone lengths stay within 0.1 % under gravity and impacts — see tests/unit/physics/particles). */
export const DEFAULT_ITERATIONS = 20;
