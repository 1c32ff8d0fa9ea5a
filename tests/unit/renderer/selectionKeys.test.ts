/**
 * Two small rules the viewport and the keyboard share:
 *  - boneHighlight: which bones the skeleton draws highlighted, by the selection's kind (bodies and joints
 *    are often named like bones — the generator names a body after its bone, a joint after its child body);
 *  - takesTyping / activatesOnSpace: whether a plain key belongs to the focused control or to the
 *    editor's shortcuts (Space play/pause, F, W/E/R…).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadRig } from '../../../shared/rig';
import { boneHighlight } from '../../../renderer/src/viewport/boneHighlight';
import { activatesOnSpace, takesTyping } from '../../../renderer/src/state/keyTarget';

const rig = loadRig(JSON.parse(readFileSync(new URL('../../../assets/creatures/humanoid.rig.json', import.meta.url), 'utf8')), { source: 'humanoid.rig.json' });

describe('boneHighlight', () => {
  it('a bone selection highlights that bone; hover of a bone is shown as hover', () => {
    expect(boneHighlight({ kind: 'bone', name: 'shin_l' }, { kind: 'bone', name: 'foot_l' }, rig)).toEqual({ selected: 'shin_l', secondary: null, hovered: 'foot_l' });
  });

  it('a body (or one of its shapes) selects no bone; its own bone is the secondary highlight', () => {
    // Pick a body whose bone has another name, so the lookup is by the rig, not by the name.
    const body = rig.bodies.find((b) => b.name === 'shin_l')!;
    expect(boneHighlight({ kind: 'body', name: 'shin_l' }, null, rig)).toEqual({ selected: null, secondary: body.bone, hovered: null });
    expect(boneHighlight({ kind: 'shape', name: 'shin_l', index: 0 }, null, rig).secondary).toBe(body.bone);
    const renamed = { ...rig, bodies: rig.bodies.map((b) => (b.name === 'shin_l' ? { ...b, name: 'left knee' } : b)) };
    expect(boneHighlight({ kind: 'body', name: 'left knee' }, null, renamed)).toEqual({ selected: null, secondary: 'shin_l', hovered: null });
    expect(boneHighlight({ kind: 'body', name: 'shin_l' }, null, renamed).secondary).toBeNull();
  });

  it('a joint named like a bone highlights nothing; body or joint hover is not bone hover', () => {
    expect(rig.joints.some((j) => j.name === 'shin_l')).toBe(true);
    expect(boneHighlight({ kind: 'joint', name: 'shin_l' }, { kind: 'body', name: 'shin_l' }, rig)).toEqual({ selected: null, secondary: null, hovered: null });
    expect(boneHighlight(null, { kind: 'joint', name: 'shin_l' }, null)).toEqual({ selected: null, secondary: null, hovered: null });
  });
});

describe('takesTyping / activatesOnSpace', () => {
  it('text entry owns plain keys: text-like inputs (incl. number and no type), textarea, select, contentEditable', () => {
    for (const type of ['text', 'number', 'search', 'email', 'password', 'url', 'tel', 'date', undefined]) {
      expect(takesTyping({ tagName: 'INPUT', type }), String(type)).toBe(true);
    }
    expect(takesTyping({ tagName: 'TEXTAREA' })).toBe(true);
    expect(takesTyping({ tagName: 'SELECT' })).toBe(true);
    expect(takesTyping({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('buttons, checkboxes, sliders, plain elements and no target leave plain keys to the shortcuts', () => {
    for (const type of ['button', 'checkbox', 'radio', 'range', 'color', 'submit', 'file']) expect(takesTyping({ tagName: 'INPUT', type }), type).toBe(false);
    for (const tagName of ['BUTTON', 'DIV', 'CANVAS', 'BODY', 'A']) expect(takesTyping({ tagName }), tagName).toBe(false);
    expect(takesTyping(null)).toBe(false);
    expect(takesTyping(window_like())).toBe(false);
  });

  it('Space activates buttons, links, summaries, checkboxes and radios — not sliders or plain elements', () => {
    for (const t of [{ tagName: 'BUTTON' }, { tagName: 'A' }, { tagName: 'SUMMARY' }, { tagName: 'INPUT', type: 'checkbox' }, { tagName: 'INPUT', type: 'radio' }, { tagName: 'INPUT', type: 'submit' }]) {
      expect(activatesOnSpace(t), JSON.stringify(t)).toBe(true);
    }
    for (const t of [{ tagName: 'INPUT', type: 'range' }, { tagName: 'DIV' }, { tagName: 'CANVAS' }, null]) expect(activatesOnSpace(t), JSON.stringify(t)).toBe(false);
  });
});

/** What a key event's target is when it comes from the window itself (no tagName). */
function window_like(): object { return { addEventListener: () => undefined }; }
