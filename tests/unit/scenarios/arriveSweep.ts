/**
 * Arrival from the eight targets of docs/locomotion.md "Arrival": per target when it arrived, the hold
 * (largest distance, mean root speed over its last 3 s, hand–floor contact share, lowest body up-component)
 * and the progress toward the target moved 3 m on. For tuning the stop; the scenario test asserts on the
 * same `arrive` figures.
 *
 *   npx tsx tests/unit/scenarios/arriveSweep.ts [--steering '{"restPoint":[0,0.2,0.3]}'] [--targets 0,1,6]
 */
import { armedMineWithSteering } from './armedMineWorld';
import { ARRIVE_TARGETS, arrive } from './scenarios';
import type { RigDocument } from '../../../shared/rig';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
const rig: RigDocument = armedMineWithSteering(opt('steering'));
const pick = opt('targets')?.split(',').map(Number) ?? ARRIVE_TARGETS.map((_, i) => i);
for (const i of pick) {
  const target = ARRIVE_TARGETS[i]!;
  const a = arrive(rig, { target, approach: 60 });
  console.log(`(${target.join(',')}): arrived ${a.arrivedAt.toFixed(1)} s at ${a.arrivedDistance.toFixed(2)} m; hold max ${a.holdMaxDistance.toFixed(2)} m, ` +
    `${(a.holdMeanSpeed * 1000).toFixed(1)} mm/s, hand ${(100 * a.holdContact).toFixed(0)} %, up ≥ ${a.holdMinUp.toFixed(2)}${a.holdRestarted ? ', RESTARTED' : ''}; ` +
    `+3 m: ${a.restartProgress.toFixed(2)} m${a.blowUp ? ', BLEW UP' : ''}; joint error ${(a.maxJointError * 1000).toFixed(1)} mm${a.overLimit ? `, OVER ${a.overLimit}` : ''}`);
}
