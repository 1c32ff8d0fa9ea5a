/// <reference lib="webworker" />
/** The preview's Web Worker: the simulation host (host.ts) off the UI thread. */
import '../noEval';
import { createHost } from './host';
import type { ToHost } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const host = createHost((msg, transfer) => scope.postMessage(msg, transfer ?? []));
scope.onmessage = (e: MessageEvent<ToHost>) => host.receive(e.data);
