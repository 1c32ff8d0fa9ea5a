/**
 * The real-creature corpus (assets/third-party/corpus.json) through generate → validate → 5 s powered and
 * 5 s limp, each creature rescaled to its real height: one line per creature with the figures the
 * corpus test asserts (tests/unit/authoring/corpus.test.ts). `npx tsx scripts/corpus-report.ts [--json] [NAME…]`
 */
import { readFileSync } from 'node:fs';
import { checkRigPlausibility, generateRagdoll, newRigDocument, runTrial, scaleForHeight, scaleSkeleton, withGeneratedRagdoll } from '../shared/authoring';
import { validateRig } from '../shared/rig';
import { readCreatureInput } from '../cli/commands/generate';

export interface CorpusEntry { name: string; file: string; kind: string; standsOnLegs: boolean; heightMetres: number }

export const corpus = (): CorpusEntry[] => (JSON.parse(readFileSync(new URL('../assets/third-party/corpus.json', import.meta.url), 'utf8')) as { creatures: CorpusEntry[] }).creatures;

export async function trialCreature(entry: CorpusEntry, root = new URL('..', import.meta.url).pathname) {
  const { input: raw } = await readCreatureInput(root + entry.file);
  const scale = scaleForHeight(raw, entry.heightMetres);
  const input = scaleSkeleton(raw, scale);
  const generated = generateRagdoll(input);
  const rig = withGeneratedRagdoll({ ...newRigDocument(entry.name, input.bones), skeleton: { bones: [...input.bones], scale } }, generated);
  const valid = validateRig(rig);
  const warnings = checkRigPlausibility(rig);
  const powered = runTrial(rig, 5, true), limp = runTrial(rig, 5, false);
  return { entry, scale, rig, generated, valid, warnings, powered, limp };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*scripts\//, 'scripts/'))) {
  const json = process.argv.includes('--json');
  const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  for (const entry of corpus().filter((e) => names.length === 0 || names.includes(e.name))) {
    const r = await trialCreature(entry);
    const row = {
      name: entry.name, bodies: r.rig.bodies.length, bones: r.rig.skeleton.bones.length, mass: +r.generated.summary.totalMass.toFixed(1), massSource: r.generated.summary.massSource,
      valid: r.valid.ok, warnings: r.warnings.map((w) => w.kind), massRatioWarnings: r.warnings.filter((w) => w.kind === 'mass-ratio').length,
      poweredBlowUp: r.powered.blewUpAt, poweredMinTop: +r.powered.minTopFraction.toFixed(3), poweredFinalTop: +r.powered.finalTopFraction.toFixed(3), poweredCompliantDrives: r.powered.compliantDrives,
      limpBlowUp: r.limp.blewUpAt, limpMaxSpeed: +r.limp.maxSpeed.toFixed(2), limpFinalTop: +r.limp.finalTopFraction.toFixed(3),
    };
    if (json) console.log(JSON.stringify(row));
    else console.log(`${row.name.padEnd(26)} ${String(row.bodies).padStart(3)}/${String(row.bones).padEnd(3)} ${String(row.mass).padStart(7)} kg ${row.massSource.padEnd(8)} valid=${row.valid} warn=[${row.warnings.join(',')}] powered: ${row.poweredBlowUp === null ? 'ok' : `BLEW ${row.poweredBlowUp.toFixed(2)}s`} top min ${row.poweredMinTop} end ${row.poweredFinalTop} compliant drives ${row.poweredCompliantDrives} | limp: ${row.limpBlowUp === null ? 'ok' : `BLEW ${row.limpBlowUp.toFixed(2)}s`} vmax ${row.limpMaxSpeed} end ${row.limpFinalTop}`);
  }
}
