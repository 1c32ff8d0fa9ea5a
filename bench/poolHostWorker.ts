/**
 * One preview host (shared/preview/host.ts) in a Node worker thread, for bench/previewPool.ts: the Node
 * twin of renderer/src/preview/simWorker.ts (messages in and out, slices scheduled with setImmediate so
 * messages are taken between them).
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { createHost } from '../shared/preview/host';
import type { ToHost } from '../shared/preview/protocol';

const port = parentPort;
if (!port) throw new Error('bench/poolHostWorker.ts runs as a worker thread (bench/previewPool.ts starts it)');
const host = createHost((m, transfer) => port.postMessage(m, transfer ?? []), (fn) => setImmediate(fn), { now: () => performance.now(), wall: () => performance.timeOrigin + performance.now() });
port.on('message', (m: ToHost) => host.receive(m));
