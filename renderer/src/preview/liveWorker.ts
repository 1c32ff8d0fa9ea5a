/// <reference lib="webworker" />
/** Live simulate's Web Worker: a thin adapter that runs the live host (shared/preview/live.ts) off the UI
 *  thread, beside the recording's worker (simWorker.ts) — messages in and out, setTimeout, the clock. */
import '../noEval';
import { createLiveHost, type ToLive } from '../../../shared/preview/live';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const host = createLiveHost((msg, transfer) => scope.postMessage(msg, transfer ?? []), (fn, ms) => setTimeout(fn, ms), { now: () => performance.now() });
scope.onmessage = (e: MessageEvent<ToLive>) => host.receive(e.data);
