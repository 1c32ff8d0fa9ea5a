/**
 * Selection and hover compare what they point at by kind + name (+ shape index), never by name alone: the
 * generator names a body after its bone and a joint after its child body, so on a generated rig the bone
 * "forearm", the body "forearm" and the joint "forearm" are three different things with one name.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sameTarget, selectedBoneName, selectionKey } from '../../../renderer/src/state/selection';
import { hover, select } from '../../../renderer/src/state/editor';
import { setSession, useEditor, type Selection } from '../../../renderer/src/state/store';
import { boneHighlight } from '../../../renderer/src/viewport/boneHighlight';

const bone: Selection = { kind: 'bone', name: 'forearm' };
const body: Selection = { kind: 'body', name: 'forearm' };
const joint: Selection = { kind: 'joint', name: 'forearm' };
const shape = (index: number): Selection => ({ kind: 'shape', name: 'forearm', index });

describe('selection identity', () => {
  it('same name, different kind (or shape index) is a different target', () => {
    expect(sameTarget(bone, body)).toBe(false);
    expect(sameTarget(body, joint)).toBe(false);
    expect(sameTarget(body, shape(0))).toBe(false);
    expect(sameTarget(shape(0), shape(1))).toBe(false);
    expect(sameTarget(bone, { kind: 'bone', name: 'forearm' })).toBe(true);
    expect(sameTarget(shape(1), shape(1))).toBe(true);
    expect(sameTarget(null, null)).toBe(true);
    expect(sameTarget(bone, null)).toBe(false);
    // Keys cannot collide through the name: a body named "bone:x" is not the bone "x".
    expect(selectionKey({ kind: 'body', name: 'bone:x' })).not.toBe(selectionKey({ kind: 'bone', name: 'x' }));
    expect(new Set([bone, body, joint, shape(0), shape(1)].map(selectionKey)).size).toBe(5);
  });

  it('only a bone selection names a bone (what a project saves as its selected bone)', () => {
    expect(selectedBoneName(bone)).toBe('forearm');
    expect(selectedBoneName(body)).toBeNull();
    expect(selectedBoneName(joint)).toBeNull();
    expect(selectedBoneName(shape(0))).toBeNull();
    expect(selectedBoneName(null)).toBeNull();
  });
});

describe('hover in the editor store', () => {
  beforeEach(() => setSession({ hover: null, selection: null }));

  it('moving from the bone "forearm" onto the body "forearm" hovers the body, and the bone is no longer lit', () => {
    hover(bone);
    expect(useEditor.getState().session.hover).toEqual(bone);
    expect(boneHighlight(null, useEditor.getState().session.hover, null).hovered).toBe('forearm');
    hover(body);
    expect(useEditor.getState().session.hover).toEqual(body);
    expect(boneHighlight(null, useEditor.getState().session.hover, null).hovered).toBeNull();
    hover(shape(1));
    expect(useEditor.getState().session.hover).toEqual(shape(1));
    hover(bone);
    expect(boneHighlight(null, useEditor.getState().session.hover, null).hovered).toBe('forearm');
  });

  it('hovering the same target again does not touch the store (no re-render per pointer move)', () => {
    hover({ kind: 'body', name: 'forearm' });
    const session = useEditor.getState().session;
    hover({ kind: 'body', name: 'forearm' });
    expect(useEditor.getState().session).toBe(session);
    hover(null);
    expect(useEditor.getState().session.hover).toBeNull();
  });

  it('selecting a body after its bone selects the body', () => {
    select(bone);
    select(body);
    expect(useEditor.getState().session.selection).toEqual(body);
    expect(boneHighlight(useEditor.getState().session.selection, null, null).selected).toBeNull();
  });
});
