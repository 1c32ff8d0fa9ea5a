/// <reference lib="webworker" />
/** The preview's Web Worker: a thin adapter that runs the simulation host (shared/preview/host.ts) off the
 *  UI thread — messages in and out, setTimeout for its slices, the browser's clocks. */
import '../noEval';
import { createHost } from '../../../shared/preview/host';
import type { ToHost } from '../../../shared/preview/protocol';
import { hostClock } from './hostClock';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const host = createHost((msg, transfer) => scope.postMessage(msg, transfer ?? []), (fn) => setTimeout(fn, 0), hostClock);
scope.onmessage = (e: MessageEvent<ToHost>) => host.receive(e.data);
