/** The browser's clocks for the simulation host (shared/preview/host.ts): performance.now() for its slice
 *  budget, and a wall clock the worker and the main thread agree on for the latency stamps. */
import type { HostClock } from '../../../shared/preview/host';

export const wallClock = (): number => performance.timeOrigin + performance.now();

export const hostClock: HostClock = { now: () => performance.now(), wall: wallClock };
