/**
 * Prints every issue-5 scenario figure for the shipped Armed Mine (or a variant), including the heading
 * steadiness the crawl test asserts on — for tuning and for docs/locomotion.md:
 *
 *   npx tsx tests/unit/scenarios/report.ts
 *   npx tsx tests/unit/scenarios/report.ts --steering '{"gain":2,"rateGain":0.5}'   (merged into the
 *       controller's steering parameters before the run; no schema check, so unknown keys are ignored)
 *   npx tsx tests/unit/scenarios/report.ts --only crawl,steer
 */
import { armedMineWithSteering } from './armedMineWorld';
import { arrive, crawl, kick, recover, steer, weak } from './scenarios';
import type { RigDocument } from '../../../shared/rig';

const DEG = Math.PI / 180;
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };

const rig: RigDocument = armedMineWithSteering(opt('steering'));
if (opt('steering')) console.log(`steering: ${JSON.stringify(rig.controllers[0]!.steering)}`);
const only = new Set((opt('only') ?? 'crawl,steer,weak,recover,kick,arrive').split(','));

if (only.has('crawl')) {
  const c = crawl(rig);
  console.log(`crawl: ${c.progress.toFixed(2)} m closer, heading at 20 s ${(c.headingAt20 / DEG).toFixed(1)}°, contact ${(100 * c.contact).toFixed(0)} %, ` +
    `joint error ${(c.maxJointError * 1000).toFixed(1)} mm, over limit ${c.overLimit ?? 'never'}${c.blowUp ? ', BLEW UP' : ''}\n  ${c.steadiness}`);
}
if (only.has('steer')) {
  const s = steer(rig);
  console.log(`steer: turned at ${s.turnedAt.toFixed(2)} s, ${s.progress.toFixed(2)} m closer\n  ${s.steadiness}`);
}
if (only.has('weak')) {
  const w = weak(rig);
  console.log(`10 % τmax: ${w.progress.toFixed(2)} m, saturated ${(100 * w.saturatedShare).toFixed(0)} % of steps, over limit ${w.overLimit ?? 'never'}`);
}
if (only.has('recover')) {
  const r = recover(rig);
  console.log(`recover: ${r.recovered}/10\n  ${r.lines.join('\n  ')}`);
}
if (only.has('kick')) {
  const k = kick(rig);
  console.log(`kick: resumed ${k.resumedAt.toFixed(2)} s after${k.blowUp ? ', BLEW UP' : ''}`);
}
if (only.has('arrive')) {
  const a = arrive(rig);
  console.log(`arrive: arrived at ${a.arrivedAt.toFixed(2)} s, ${a.arrivedDistance.toFixed(2)} m from the target; hold: max ${a.holdMaxDistance.toFixed(2)} m, ` +
    `speed over the last 3 s mean ${(a.holdMeanSpeed * 1000).toFixed(1)} mm/s, max ${(a.holdMaxSpeed * 1000).toFixed(1)} mm/s, contact ${(100 * a.holdContact).toFixed(0)} %` +
    `${a.holdRestarted ? ', RESTARTED' : ''}; joint error ${(a.maxJointError * 1000).toFixed(1)} mm, over limit ${a.overLimit ?? 'never'}; ` +
    `target +3 m: ${a.restartProgress.toFixed(2)} m closer in 10 s (1 m at ${a.restartAt1m.toFixed(2)} s)${a.blowUp ? ', BLEW UP' : ''}`);
}
