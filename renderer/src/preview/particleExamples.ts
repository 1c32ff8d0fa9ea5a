/**
 * The example files of assets/examples/ (the paper's particle demos), bundled as text for the web build's
 * File › Examples menu; under Electron the native menu lists the folder itself and passes the path.
 * Opening one branches on its format: a "marionette-particles" scene shows under the particle solver.
 */
import { PARTICLE_SCENE_FORMAT } from '../../../shared/physics/particles';
import { platform } from '../platform/bridge';
import { closeDocument, notify, openProjectText } from '../state/editor';
import { openParticleScene } from './particleMode';

const texts = import.meta.glob('../../../assets/examples/*.json', { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

export interface ExampleEntry { name: string; fileName: string; load: () => Promise<string> }

export const bundledExamples: ExampleEntry[] = Object.entries(texts)
  .map(([path, load]) => { const fileName = path.replace(/^.*\//, ''); return { name: fileName.replace(/\.json$/, ''), fileName, load }; })
  .sort((a, b) => a.name.localeCompare(b.name));

/** "double-pendulum-90" → "Double Pendulum 90" (as the native menu labels them). */
export const exampleLabel = (name: string): string => name.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** Whether an Examples entry is one of these files (rather than a built-in creature). */
export const isExampleFile = (name: string, path?: string): boolean =>
  (path !== undefined && /\.json$/i.test(path)) || (path === undefined && bundledExamples.some((e) => e.name === name));

/** Open an example file: a particle scene under the particle solver, any other JSON as a project. */
export async function openExampleFile(name: string, path?: string): Promise<boolean> {
  try {
    let text: string, fileName: string;
    if (path !== undefined) ({ text, name: fileName } = await platform.readProject(path));
    else {
      const entry = bundledExamples.find((e) => e.name === name);
      if (!entry) throw new Error(`Example "${name}" is not part of this build`);
      text = await entry.load();
      fileName = entry.fileName;
    }
    let format: unknown;
    try { format = (JSON.parse(text) as { format?: unknown } | null)?.format; } catch { format = undefined; }
    if (format !== PARTICLE_SCENE_FORMAT) return await openProjectText(text, fileName, null);
    const opened = await openParticleScene(text, fileName, closeDocument);
    if (opened) notify('info', `Opened ${fileName}: ${opened.scene.name} — particle solver, ${opened.scene.bones.length} bones; click a bone to push it`);
    return opened !== null;
  } catch (e) {
    notify('error', e instanceof Error ? e.message : String(e));
    return false;
  }
}
