/**
 * The Generate dialog's preview (issue 10 item 2/5), on the corpus's synthetic Mixamo creature (centimetre
 * data under an Armature ×0.01, IK and pole bones, *_End bones): every bone is listed with whether it gets
 * a body or merges into which body and why; unticking a bone excludes it (one undo step) and the preview
 * follows; the Total mass field sets the generated rig's total mass.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, MENU, type App } from './harness/app';
import { countColorPixels, hook, nextFrames } from './harness/hook';

let app: App;
beforeAll(async () => { app = await launchApp(); }, 90_000);
afterAll(async () => { await app?.close(); });

const FILE = 'assets/third-party/synthetic/mixamo-cm.glb';
type Rig = { bodies: { name: string; bone: string; mass: number | null }[]; joints: unknown[] };
const rig = async () => ((await hook(app.page, 'document')) as { rig: Rig }).rig;

interface PlanRow { bone: string; body: boolean; reason: string; mergedInto: string }
async function planRows(): Promise<PlanRow[]> {
  return app.page.getByTestId('generate-dialog').locator('[data-plan-bone]').evaluateAll((els) => els.map((e) => ({
    bone: e.getAttribute('data-plan-bone')!,
    body: e.getAttribute('data-plan-body') === 'true',
    reason: e.getAttribute('data-plan-reason')!,
    mergedInto: e.getAttribute('data-plan-merged-into')!,
  })));
}
const totalShown = async () => Number(await app.page.getByTestId('generate-total-mass').textContent());

describe('the Generate dialog previews the body plan', () => {
  it('lists every bone: deforming bones get bodies, IK / pole bones and end bones merge into their deforming parents', async () => {
    const page = app.page;
    await app.pickFiles(MENU.openCreature, [path.resolve(FILE)]);
    await expect.poll(async () => (await hook(page, 'creature'))?.fileName, { timeout: 60_000 }).toBe('mixamo-cm.glb');
    const bones = (await hook(page, 'creature'))!.bones;
    await page.getByRole('toolbar').getByRole('button', { name: 'Generate from skeleton', exact: true }).click();
    await expect.poll(async () => (await planRows()).length, { timeout: 20_000 }).toBe(bones.length);
    const rows = await planRows();
    // Parents before children (the plan's order), every bone once.
    expect(rows.map((r) => r.bone).sort()).toEqual(bones.map((b) => b.name).sort());
    const parentOf = new Map(bones.map((b) => [b.name, b.parent]));
    for (const r of rows) {
      if (/_IK$|_Pole$/.test(r.bone)) {
        expect(r, r.bone).toMatchObject({ body: false, reason: 'helper' });
        expect(r.mergedInto).not.toBe('');
      } else if (/_End$/.test(r.bone)) {
        // An end bone joins the body of its nearest ancestor that has one.
        expect(r, r.bone).toMatchObject({ body: false, reason: 'end' });
        let a = parentOf.get(r.bone) ?? null;
        while (a !== null && !rows.find((x) => x.bone === a)!.body) a = parentOf.get(a) ?? null;
        expect(r.mergedInto).toBe(a);
      } else {
        expect(r, r.bone).toMatchObject({ body: true, reason: 'deforming', mergedInto: '' });
      }
    }
    expect(rows.filter((r) => r.reason === 'helper')).toHaveLength(4);
    expect(rows.filter((r) => r.reason === 'end')).toHaveLength(5);
    // A recognised biped: 70 kg split by segment fractions unless told otherwise.
    expect(await page.getByTestId('generate-summary').textContent()).toContain('biped segment fractions');
    expect(await totalShown()).toBeCloseTo(70, 1);
    expect(await page.getByTestId('generate-summary').textContent()).toContain(`${rows.filter((r) => r.body).length} bodies`);
  });

  it('the viewport colours every planned bone at once — bodies green, merged violet — and the hovered row\'s bone stays emphasised', async () => {
    const page = app.page;
    const colors = await page.evaluate(() => (window as unknown as { __marionette: { colors: { planBody: string; planMerged: string } } }).__marionette.colors);
    const rows = await planRows();
    await expect.poll(async () => (await hook(page, 'planBones'))?.body.length ?? -1, { timeout: 20_000 }).toBe(rows.filter((r) => r.body).length);
    const shown = (await hook(page, 'planBones'))!;
    // Every bone in exactly one colour, as the dialog's list has it.
    expect([...shown.body].sort()).toEqual(rows.filter((r) => r.body).map((r) => r.bone).sort());
    expect([...shown.merged].sort()).toEqual(rows.filter((r) => !r.body && r.reason !== 'excluded').map((r) => r.bone).sort());
    expect(shown.excluded).toEqual([]);
    await nextFrames(page);
    const body = await countColorPixels(page, colors.planBody), merged = await countColorPixels(page, colors.planMerged);
    // On screen, not only in the hook: many bones in the body colour, the 9 merged bones in theirs.
    expect(body).toBeGreaterThan(300);
    expect(merged).toBeGreaterThan(20);
    // Hovering a body's row draws that bone in the hover colour (its joint enlarged): fewer green pixels.
    await page.locator('[data-plan-bone="mixamorig:Hips"]').hover();
    await nextFrames(page);
    const hovered = await countColorPixels(page, colors.planBody);
    expect(hovered).toBeLessThan(body);
    expect(await countColorPixels(page, colors.planMerged)).toBeGreaterThan(20);
    await page.mouse.move(5, 5);
  });

  it('unticking a bone excludes it (one undo step): the preview merges it into its parent\'s body', async () => {
    const page = app.page;
    const depth = await hook(page, 'undoDepth');
    const head = 'mixamorig:Head';
    await page.getByRole('checkbox', { name: `Include ${head}`, exact: true }).uncheck();
    await expect.poll(async () => (await planRows()).find((r) => r.bone === head)).toMatchObject({ body: false, reason: 'excluded', mergedInto: 'mixamorig:Spine' });
    expect(await hook(page, 'undoDepth')).toBe(depth + 1);
    // The viewport follows: the head is drawn excluded, no longer as a body.
    await expect.poll(async () => (await hook(page, 'planBones'))?.excluded).toEqual([head]);
    expect((await hook(page, 'planBones'))!.body).not.toContain(head);
    // Its end bone now merges into the spine's body too.
    expect((await planRows()).find((r) => r.bone === 'mixamorig:HeadTop_End')!.mergedInto).toBe('mixamorig:Spine');
    await page.getByRole('checkbox', { name: `Include ${head}`, exact: true }).check();
    await expect.poll(async () => (await planRows()).find((r) => r.bone === head)).toMatchObject({ body: true, reason: 'deforming' });
  });

  it('Keep helper bones: the IK and pole bones are judged like any other (they own no vertices: still no body)', async () => {
    const page = app.page;
    const keep = page.getByRole('checkbox', { name: 'Keep helper bones', exact: true });
    await keep.check();
    await expect.poll(async () => (await planRows()).filter((r) => /_IK$|_Pole$/.test(r.bone)).map((r) => r.reason)).toEqual(['no-geometry', 'no-geometry', 'no-geometry', 'no-geometry']);
    await keep.uncheck();
    await expect.poll(async () => (await planRows()).filter((r) => r.reason === 'helper').length).toBe(4);
  });

  it('Total mass sets the generated rig\'s total mass', async () => {
    const page = app.page;
    const field = page.getByTestId('generate-dialog').getByRole('textbox', { name: 'Total mass', exact: true });
    await field.fill('80');
    await field.press('Enter');
    await expect.poll(totalShown).toBeCloseTo(80, 1);
    const bodies = (await planRows()).filter((r) => r.body).length;
    await page.getByTestId('generate-dialog').getByRole('button', { name: 'Generate', exact: true }).click();
    await expect.poll(async () => (await rig()).bodies.length, { timeout: 20_000 }).toBe(bodies);
    await expect.poll(() => page.getByTestId('generate-dialog').count()).toBe(0);
    // The preview goes with the dialog.
    await expect.poll(async () => hook(page, 'planBones')).toBeNull();
    await nextFrames(page);
    expect(await countColorPixels(page, (await page.evaluate(() => (window as unknown as { __marionette: { colors: { planBody: string } } }).__marionette.colors.planBody)))).toBeLessThan(20);
    const total = (await rig()).bodies.reduce((s, b) => s + (b.mass ?? 0), 0);
    expect(total).toBeGreaterThan(79.9);
    expect(total).toBeLessThan(80.1);
  });
});
