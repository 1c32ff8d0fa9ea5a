/**
 * TestEditor: the headless Editor (shared/editor) on an in-memory platform, for unit tests without a browser.
 * Files live in a Map (path → bytes or text); dialogs answer from queues the test fills (`picks`, `answers`);
 * creatures are read from their bytes by shared/skeleton's parser (what the CLI uses), so Generate sees
 * the same skinned vertices as in the app; the preview records the inputs it is given. Everything the
 * editor tells the user is kept in `notices`, every change event counted in `changes`.
 */
import { readFileSync } from 'node:fs';
import { Editor, type EditorEvent, type EditorPlatform, type PreviewInputs } from '../../../shared/editor';
import { authoringSkeletonFromCreature, scaleSkeleton, type AuthoringSkeleton } from '../../../shared/authoring';
import { parseCreature } from '../../../shared/skeleton';
import type { PickedFile, RecentEntry } from '../../../shared/platform';
import type { PreviewInput } from '../../../shared/preview/input';

export const assetsDir = new URL('../../../assets/creatures/', import.meta.url);
export const assetBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(name, assetsDir)));

/** The test platform's creature: its file name and the authoring input read from its bytes. */
export interface TestCreature { fileName: string; skeleton: AuthoringSkeleton; disposed: boolean }

export interface PreviewCall { kind: keyof PreviewInputs; args: unknown[] }

export class TestEditor extends Editor<TestCreature> {
  /** The "disk": path → bytes (creatures, exports) or text (projects). */
  readonly disk = new Map<string, Uint8Array | string>();
  /** What the next pickCreature / pickProject dialogs return (null: the user cancelled). */
  readonly picks: (string | null)[] = [];
  /** Answers for the next ask() prompts, by label; the questions asked are kept in `asked`. */
  readonly answers: string[] = [];
  readonly asked: { title: string; text: string; labels: string[] }[] = [];
  readonly notices: { kind: 'error' | 'info'; text: string }[] = [];
  readonly statuses: string[] = [];
  readonly recent: Omit<RecentEntry, 'openedAt'>[] = [];
  readonly previewCalls: PreviewCall[] = [];
  /** The preview's timeline inputs (list / replace: what a project saves and reopens with). */
  timeline: PreviewInput[] = [];
  autosaved: string | null = null;
  title: { title: string; dirty: boolean } | null = null;
  changes = 0;
  /** The view state a saved project records besides the selection. */
  view = { showSkeleton: true };

  constructor(options: { preview?: boolean } = {}) {
    // The platform's functions reach the editor (its disk, queues) once it exists.
    const holder: { editor?: TestEditor } = {};
    const self = (): TestEditor => holder.editor!;
    const record = (kind: keyof PreviewInputs) => (...args: unknown[]) => { self().previewCalls.push({ kind, args }); };
    const preview: PreviewInputs = {
      applyImpulseAt: record('applyImpulseAt'), blast: record('blast'), grab: record('grab'),
      moveGrab: record('moveGrab'), releaseGrab: record('releaseGrab'), setLimp: record('setLimp'),
      list: () => [...self().timeline],
      replace: (inputs) => { self().previewCalls.push({ kind: 'replace', args: [inputs] }); self().timeline = [...inputs]; },
    };
    const read = (path: string): PickedFile => {
      const data = self().disk.get(path);
      if (data === undefined) throw new Error(`${path}: no such file`);
      const name = path.replace(/^.*\//, '');
      return { name, path, bytes: typeof data === 'string' ? new TextEncoder().encode(data) : data, resources: {} };
    };
    const readText = (path: string) => {
      const data = self().disk.get(path);
      if (typeof data !== 'string') throw new Error(`${path}: no such project`);
      return { name: path.replace(/^.*\//, ''), path, text: data };
    };
    const platform: EditorPlatform<TestCreature> = {
      files: {
        pickCreature: async () => { const p = self().picks.shift() ?? null; return p === null ? null : read(p); },
        readCreature: async (path) => read(path),
        pickProject: async () => { const p = self().picks.shift() ?? null; return p === null ? null : readText(p); },
        readProject: async (path) => readText(path),
        saveProject: async (text, path, suggested) => {
          const where = path ?? self().picks.shift() ?? `/projects/${suggested}`;
          self().disk.set(where, text);
          return { path: where, name: where.replace(/^.*\//, '') };
        },
        exportRig: async (data, suggested) => {
          const where = `/exports/${suggested}`;
          self().disk.set(where, data);
          return { path: where, name: suggested };
        },
        addRecent: async (entry) => { self().recent.push(entry); },
        writeAutosave: async (text) => { self().autosaved = text; },
        readAutosave: async () => (self().autosaved === null ? null : { text: self().autosaved!, savedAt: 0 }),
        clearAutosave: async () => { self().autosaved = null; },
        setDocumentState: (title, dirty) => { self().title = { title, dirty }; },
      },
      ask: async (title, text, labels) => {
        self().asked.push({ title, text, labels });
        const a = self().answers.shift();
        return a !== undefined && labels.includes(a) ? a : labels.at(-1)!;
      },
      creatures: {
        load: async (fileName, bytes, resources) => ({
          fileName, disposed: false,
          skeleton: authoringSkeletonFromCreature(parseCreature({ name: fileName, bytes, resources })),
        }),
        bones: (c) => c.skeleton.bones.map((b) => structuredClone(b)),
        boneNames: (c) => c.skeleton.bones.map((b) => b.name),
        authoringSkeleton: (c, scale) => scaleSkeleton(c.skeleton, scale),
        notices: () => [],
        dispose: (c) => { c.disposed = true; },
      },
      builtins: {
        defaultName: 'armed-mine',
        has: (name) => name === 'armed-mine' || name === 'humanoid' || name === 'hexapod',
        fetch: async (name) => ({ fileName: `${name}.glb`, bytes: assetBytes(`${name}.glb`) }),
        rig: async (name) => JSON.parse(readFileSync(new URL(`${name}.rig.json`, assetsDir), 'utf8')) as unknown,
      },
      preview: options.preview === false ? null : preview,
      viewSession: () => ({ ...self().view }),
    };
    super(platform);
    holder.editor = this;
    this.subscribe((e: EditorEvent<TestCreature>) => {
      if (e.type === 'notice') this.notices.push({ kind: e.kind, text: e.text });
      else if (e.type === 'status') this.statuses.push(e.text);
      else this.changes++;
    });
  }

  /** The last notice's text. */
  get lastNotice(): string | undefined { return this.notices.at(-1)?.text; }

  /** Put a shipped creature on the "disk" at /creatures/NAME and return its path. */
  putAsset(name: string): string {
    const path = `/creatures/${name}`;
    this.disk.set(path, assetBytes(name));
    return path;
  }
}

/** A TestEditor with a built-in creature open (armed-mine: its shipped rig with a gait; humanoid: 20+ bodies). */
export async function openedEditor(name: 'armed-mine' | 'humanoid' | 'hexapod' = 'armed-mine', options: { preview?: boolean } = {}): Promise<TestEditor> {
  const editor = new TestEditor(options);
  const r = await editor.files.openBuiltinCreature(name);
  if (!r.ok) throw new Error(`could not open ${name}: ${r.error.message}`);
  return editor;
}
