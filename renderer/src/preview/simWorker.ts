/// <reference lib="webworker" />
/** The preview's Web Worker: a thin adapter that runs the simulation host (shared/preview/host.ts) off the
 *  UI thread — messages in and out, the browser's clocks, and its slices scheduled through a MessageChannel
 *  (a chain of setTimeout(0) is clamped to 4 ms per hop after five, a quarter of every 12 ms slice). */
import '../noEval';
import { createHost } from '../../../shared/preview/host';
import type { ToHost } from '../../../shared/preview/protocol';
import { hostClock } from './hostClock';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const slices = new MessageChannel();
const due: (() => void)[] = [];
slices.port1.onmessage = () => { due.shift()?.(); };
const schedule = (fn: () => void) => { due.push(fn); slices.port2.postMessage(0); };
const host = createHost((msg, transfer) => scope.postMessage(msg, transfer ?? []), schedule, hostClock);
scope.onmessage = (e: MessageEvent<ToHost>) => host.receive(e.data);
