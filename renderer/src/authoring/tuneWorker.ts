/// <reference lib="webworker" />
/** Tune…'s Web Worker: shared/authoring's tuneRig (gains from a settle time, verified by simulating each
 *  joint's step response — 0.3 s for the Armed Mine, 0.5 s for the humanoid in Node) off the UI thread. */
import '../noEval';
import { tuneRig, type TuneOptions } from '../../../shared/authoring/tune';
import type { RigDocument } from '../../../shared/rig';

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (e: MessageEvent<{ id: number; rig: RigDocument; options: TuneOptions }>) => {
  const { id, rig, options } = e.data;
  try {
    scope.postMessage({ id, result: tuneRig(rig, options) });
  } catch (err) {
    scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
