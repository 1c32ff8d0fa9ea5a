import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PROJECT_FORMAT, PROJECT_VERSION, ProjectFileError, creaturePathForProject, parseProject, projectFileName, resolveCreaturePath, serializeProject,
  basenameOf, dirnameOf, isAbsolutePath,
} from '../../../shared/project';

const rig = { format: 'marionette-rig', version: 1, bones: [{ bone: 'forearm', includeInRagdoll: true }] };

describe('project file', () => {
  it('round-trips creature, rig and session exactly', () => {
    const project = {
      creature: { name: 'armed-mine.glb', path: '../creatures/armed-mine.glb' },
      rig,
      session: { camera: { position: [1, 2, 3] as [number, number, number], target: [0, 0.5, 0] as [number, number, number] }, selectedBone: 'forearm', showSkeleton: true },
    };
    const text = serializeProject(project);
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = parseProject(text, 'robot.marionette');
    expect(parsed).toEqual({ format: PROJECT_FORMAT, version: PROJECT_VERSION, ...project });
    expect(PROJECT_VERSION).toBe(2);
    expect(serializeProject(parsed)).toBe(text);
  });

  it('version 1 (no preview inputs) still opens, as the current version; preview inputs round-trip', () => {
    const v1 = '{"format":"marionette-project","version":1,"creature":{"name":"a.glb","path":"a.glb"},"rig":{}}';
    const parsed = parseProject(v1, 'old.marionette');
    expect(parsed.version).toBe(PROJECT_VERSION);
    expect(parsed.preview).toBeUndefined();
    const preview = { inputs: [{ kind: 'limp' as const, frame: 4, joints: 'all' as const, limp: true }, { kind: 'target' as const, frame: 9, target: null }] };
    const text = serializeProject({ creature: parsed.creature, rig: {}, preview });
    expect(parseProject(text, 'p.marionette').preview).toEqual(preview);
    expect(serializeProject({ creature: parsed.creature, rig: {}, preview: { inputs: [] } })).not.toContain('preview');
    expect(() => parseProject(text.replace('"limp": true', '"limp": "yes"'), 'p.marionette')).toThrow(/^p\.marionette: preview\.inputs\.0\.limp: /);
  });

  it('accepts a built-in creature with no path, keeps unknown session keys', () => {
    const text = serializeProject({ creature: { name: 'armed-mine.glb', path: null, builtin: 'armed-mine' }, rig, session: { playhead: 2.5 } });
    const parsed = parseProject(text, 'p.marionette');
    expect(parsed.creature.builtin).toBe('armed-mine');
    expect(parsed.session).toEqual({ playhead: 2.5 });
  });

  it.each([
    ['{ "format": ', /^robot\.marionette: not valid JSON \(/],
    ['[1,2]', /^robot\.marionette: not a Marionette project \(expected a JSON object\)/],
    ['{"format":"gltf"}', /^robot\.marionette: format: expected "marionette-project", got "gltf"/],
    ['{"format":"marionette-project","version":7,"creature":{"name":"a","path":"a"},"rig":{}}', /^robot\.marionette: version: 7 is newer than this Marionette understands \(2\)/],
    ['{"format":"marionette-project","version":1,"rig":{}}', /^robot\.marionette: creature: .*\(got nothing\)/],
    ['{"format":"marionette-project","version":1,"creature":{"name":"a","path":""},"rig":{}}', /^robot\.marionette: creature\.path: must be a non-empty path/],
    ['{"format":"marionette-project","version":1,"creature":{"name":"a","path":null},"rig":{}}', /^robot\.marionette: creature\.path: needs a path, or a builtin creature name/],
    ['{"format":"marionette-project","version":1,"creature":{"name":"a","path":"a"},"rig":[]}', /^robot\.marionette: rig: must be an object \(the rig document\) \(got \[\]\)/],
    ['{"format":"marionette-project","version":1,"creature":{"name":"a","path":"a"},"rig":{},"session":{"camera":{"position":[1,2],"target":[0,0,0]}}}', /^robot\.marionette: session\.camera\.position/],
  ])('rejects %s naming the file and field', (text, message) => {
    let error: unknown;
    try {
      parseProject(text, 'robot.marionette');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProjectFileError);
    expect((error as Error).message).toMatch(message);
  });

  it('projectFileName adds the extension and strips characters file systems refuse', () => {
    expect(projectFileName('Armed Mine')).toBe('Armed Mine.marionette');
    expect(projectFileName('a/b:c')).toBe('a-b-c.marionette');
    expect(projectFileName('x.MARIONETTE')).toBe('x.MARIONETTE');
    expect(projectFileName('  ')).toBe('Untitled.marionette');
  });
});

describe('creature paths relative to the project', () => {
  it.each([
    ['/home/u/proj/robot.marionette', '/home/u/proj/mine.glb', 'mine.glb'],
    ['/home/u/proj/robot.marionette', '/home/u/creatures/mine.glb', '../creatures/mine.glb'],
    ['/home/u/proj/sub/robot.marionette', '/home/u/proj/sub/meshes/a b.gltf', 'meshes/a b.gltf'],
    ['/home/u/robot.marionette', '/opt/assets/mine.glb', '../../opt/assets/mine.glb'],
    ['C:\\Users\\u\\proj\\robot.marionette', 'C:\\Users\\u\\creatures\\mine.glb', '../creatures/mine.glb'],
    ['C:\\Users\\u\\proj\\robot.marionette', 'c:\\users\\U\\PROJ\\mine.glb', 'mine.glb'],
    ['C:\\proj\\robot.marionette', 'D:\\assets\\mine.glb', 'D:\\assets\\mine.glb'],
    ['\\\\server\\share\\p\\robot.marionette', '\\\\server\\share\\c\\mine.glb', '../c/mine.glb'],
    [null, '/home/u/mine.glb', '/home/u/mine.glb'],
  ])('project %s, creature %s → %s, and back', (project, creature, stored) => {
    expect(creaturePathForProject(project, creature)).toBe(stored);
    const resolved = resolveCreaturePath(project, stored);
    expect(resolved.toLowerCase().replace(/\\/g, '/')).toBe(creature.toLowerCase().replace(/\\/g, '/'));
  });

  it('resolves a POSIX-saved relative path on Windows and the other way round', () => {
    expect(resolveCreaturePath('C:\\p\\robot.marionette', '../c/mine.glb')).toBe('C:\\c\\mine.glb');
    expect(resolveCreaturePath('/p/robot.marionette', '..\\c\\mine.glb')).toBe('/c/mine.glb');
    expect(resolveCreaturePath('/p/robot.marionette', '/abs/mine.glb')).toBe('/abs/mine.glb');
    expect(resolveCreaturePath(null, 'mine.glb')).toBe('mine.glb');
  });

  it('round-trips any POSIX path pair (property)', () => {
    const segment = fc.stringMatching(/^[a-z0-9 _-]{1,6}$/).filter((s) => s.trim() === s && s.length > 0);
    const absPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`);
    fc.assert(fc.property(absPath, absPath, (project, creature) => {
      const stored = creaturePathForProject(`${project}.marionette`, creature);
      expect(isAbsolutePath(stored)).toBe(false);
      expect(resolveCreaturePath(`${project}.marionette`, stored)).toBe(creature);
    }));
  });

  it('basename, dirname, isAbsolute on both separators', () => {
    expect(basenameOf('C:\\x\\mine.glb')).toBe('mine.glb');
    expect(basenameOf('/a/b/')).toBe('b');
    expect(dirnameOf('/a/b/c.glb')).toBe('/a/b');
    expect(dirnameOf('C:/a/c.glb')).toBe('C:\\a');
    expect(isAbsolutePath('relative/x')).toBe(false);
    expect(isAbsolutePath('\\\\srv\\share\\x')).toBe(true);
  });
});
