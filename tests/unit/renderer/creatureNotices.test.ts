/**
 * What opening a creature tells the user besides "Opened …" (renderer/src/state/creatureNotices.ts, shown
 * as toasts by state/editor.ts): each unreadable clip as an error, and the loader's warnings (an FBX
 * texture that was not provided) as one info notice naming the file — they used to reach only the console.
 */
import { describe, expect, it } from 'vitest';
import { creatureNotices, WARNINGS_SHOWN } from '../../../renderer/src/state/creatureNotices';
import { notify } from '../../../renderer/src/state/editor';
import { useEditor } from '../../../renderer/src/state/store';

const texture = (name: string) => `hero.fbx: texture "${name}" was not provided (pick it together with the .fbx); drawn without it`;

describe('creature notices', () => {
  it('nothing to say for a clean file', () => {
    expect(creatureNotices({ fileName: 'hero.fbx', clipProblems: [], warnings: [] })).toEqual([]);
  });

  it('a missing FBX texture becomes an info notice naming the file once, after the clip problems (errors)', () => {
    const n = creatureNotices({ fileName: 'hero.fbx', clipProblems: ['hero.fbx: clip "run": track 3 has no times'], warnings: [texture('skin.png')] });
    expect(n).toEqual([
      { kind: 'error', text: 'hero.fbx: clip "run": track 3 has no times' },
      { kind: 'info', text: 'hero.fbx: texture "skin.png" was not provided (pick it together with the .fbx); drawn without it' },
    ]);
  });

  it('many warnings: one notice with the count, the first few spelled out and the rest counted', () => {
    const names = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png'];
    const n = creatureNotices({ fileName: 'hero.fbx', clipProblems: [], warnings: names.map(texture) });
    expect(n).toHaveLength(1);
    expect(n[0]!.kind).toBe('info');
    expect(n[0]!.text.startsWith('hero.fbx: 5 warnings — texture "a.png" was not provided')).toBe(true);
    for (const name of names.slice(0, WARNINGS_SHOWN)) expect(n[0]!.text).toContain(`"${name}"`);
    for (const name of names.slice(WARNINGS_SHOWN)) expect(n[0]!.text).not.toContain(`"${name}"`);
    expect(n[0]!.text).toContain(`and ${names.length - WARNINGS_SHOWN} more`);
    // The file is named once, not once per warning.
    expect(n[0]!.text.match(/hero\.fbx/g)).toHaveLength(1);
  });

  it('a warning that does not start with the file name is still prefixed with it', () => {
    expect(creatureNotices({ fileName: 'm.fbx', clipProblems: [], warnings: ['units guessed as cm'] })).toEqual([{ kind: 'info', text: 'm.fbx: units guessed as cm' }]);
  });

  it('notify shows the notice as a toast and on the status line', () => {
    const before = useEditor.getState().toasts.length;
    const [n] = creatureNotices({ fileName: 'hero.fbx', clipProblems: [], warnings: [texture('skin.png')] });
    notify(n!.kind, n!.text, 60_000);
    const toasts = useEditor.getState().toasts;
    expect(toasts.length).toBe(Math.min(4, before + 1));
    expect(toasts.at(-1)).toMatchObject({ kind: 'info', text: n!.text });
    expect(useEditor.getState().status).toBe(n!.text);
  });
});
