/** Relaxation iterations per step when a scene is built without saying. 40, measured on the 13-bone
 *  humanoid falling onto the floor (10 s at dt = 1/120 s, worst bone each step): 20 iterations leave the
 *  bones 0.42 % off their lengths (median over the steps) because the floor, the collisions and the limits
 *  push against each other every step once it lies down; 40 bring the median to 0.03 % and the 95th
 *  percentile to 0.09 %. A chain pinned at one end needs fewer (the double pendulum is exact at 20). */
export const DEFAULT_ITERATIONS = 40;
