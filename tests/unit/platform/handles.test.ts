import { describe, expect, it } from 'vitest';
import { createHandleTable } from '../../../renderer/src/platform/handles';

describe('the bridge\'s path → handle table', () => {
  it('knows only the paths main granted, from results and menu commands', () => {
    const table = createHandleTable();
    expect(() => table.require('/home/u/.bashrc')).toThrow(/\/home\/u\/\.bashrc: this file was not opened in this session/);
    table.keep({ path: '/p/robot.marionette', handle: 'H1' });
    table.keep({ path: '/p/no-handle.marionette' });
    table.keep(null);
    table.keepCommand({ kind: 'open-recent', entry: { kind: 'creature', path: '/c/mine.glb', name: 'mine.glb', openedAt: 1, handle: 'H2' } });
    table.keepCommand({ kind: 'open-example', name: 'ragdoll', path: '/app/ragdoll.json', handle: 'H3' });
    table.keepCommand({ kind: 'open-example', name: 'humanoid' });
    table.keepCommand('save');
    expect(table.require('/p/robot.marionette')).toBe('H1');
    expect(table.require('/c/mine.glb')).toBe('H2');
    expect(table.require('/app/ragdoll.json')).toBe('H3');
    expect(table.handleOf('/p/no-handle.marionette')).toBeUndefined();
    // A later grant of the same path (main reuses handles per path) replaces it.
    table.keep({ path: '/p/robot.marionette', handle: 'H4' });
    expect(table.require('/p/robot.marionette')).toBe('H4');
  });
});
