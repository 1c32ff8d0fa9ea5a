/**
 * File commands: open a creature (a file, a built-in example, a recent entry), open a project, save, export,
 * autosave and the start-up recovery. Every command resolves to a Result and tells the user what happened
 * as a notice; files and dialogs go through the injected platform (platform.ts), never an import.
 */
import { documentForCreature, type EditorDocument } from '../document/editorDocument';
import { relinkCreature, syncSkeleton } from '../document/commands';
import { creaturePathForProject, resolveCreaturePath } from '../project/paths';
import { parseProject, projectFileName, serializeProject, type ProjectCreature, type ProjectSession } from '../project/projectFile';
import type { ExportFileFormat, PickedFile } from '../platform';
import { stripComputed, writeRigJson } from '../export/rig';
import { validateRig } from '../rig/validate';
import { formatProblem } from '../rig/problems';
import { decodeUtf8 } from '../project/utf8';
import type { RigDocument } from '../rig/schema';
import type { PreviewInput } from '../preview/input';
import { EditorCore } from './core';
import { inputsForRig } from './inputs';
import { cancelled, err, ok, selectedBoneName, thrownText, type Result } from './types';

/** The file a creature was loaded from: File › Export › glTF carries its skin, mesh and animations. */
interface CreatureSource { name: string; bytes: Uint8Array; resources: Record<string, Uint8Array> }

export class FileCommands<C extends object> {
  private readonly sources = new WeakMap<C, CreatureSource>();

  constructor(private readonly editor: EditorCore<C>) {}

  /** Ask whether to save unsaved changes; false when the user cancelled. */
  async confirmDiscard(): Promise<boolean> {
    if (!this.editor.dirty) return true;
    const choice = await this.editor.platform.ask('Unsaved changes', `"${this.editor.documentName}" has unsaved changes. Save them first?`, ['Save', "Don't save", 'Cancel']);
    if (choice === 'Save') return (await this.save(false)).ok;
    return choice === "Don't save";
  }

  /** Parse a creature; on failure say why and keep what the editor had. */
  async #load(fileName: string, bytes: Uint8Array, resources: Record<string, Uint8Array>): Promise<Result<C>> {
    this.editor.setLoading(fileName);
    try {
      const creature = await this.editor.platform.creatures.load(fileName, bytes, resources);
      this.sources.set(creature, { name: fileName, bytes, resources });
      return ok(creature);
    } catch (e) {
      const text = thrownText(e);
      return this.editor.fail('Could not open ', { field: '', message: text.startsWith(fileName) ? text : `${fileName}: ${text}` });
    } finally {
      this.editor.setLoading(null);
    }
  }

  #show(creature: C, doc: EditorDocument, file: { path: string | null; fileName: string | null }, dirty = false, session: ProjectSession | null = null): void {
    const loader = this.editor.platform.creatures;
    const old = this.editor.creature;
    const bone = session?.selectedBone && loader.boneNames(creature).includes(session.selectedBone) ? session.selectedBone : null;
    this.editor.replaceDocument(creature, syncSkeleton(doc, loader.bones(creature)), file, dirty, session, bone ? { kind: 'bone', name: bone } : null);
    // Clip problems and what the loader tolerated: they stay as long as an error (something to act on).
    if (old !== creature) for (const n of loader.notices(creature)) this.editor.notify(n.kind, n.text, 9000);
  }

  /** A new project on a creature file (File › Open Creature…, a drop, an example). */
  async openCreatureFile(picked: PickedFile, builtin?: string): Promise<Result> {
    if (!(await this.confirmDiscard())) return cancelled();
    const loaded = await this.#load(picked.name, picked.bytes, picked.resources);
    if (!loaded.ok) return loaded;
    const creature = loaded.value;
    const ref: ProjectCreature = builtin ? { name: picked.name, path: null, builtin } : { name: picked.name, path: picked.path ?? picked.name };
    let doc = documentForCreature(ref, this.editor.platform.creatures.bones(creature));
    // A built-in creature opens with the rig shipped next to it (bodies, joints, motors, gait), when valid.
    const shipped = builtin ? validateRig(await this.editor.platform.builtins.rig(builtin).catch(() => null)) : null;
    if (shipped?.ok) doc = { ...doc, rig: shipped.rig };
    // A glTF with the (draft) KHR physics extensions, or a MuJoCo .xml, opens with its rig.
    const mjcf = /\.xml$/i.test(picked.name);
    const imported = builtin ? null : mjcf ? await this.#mjcfRigOf(picked) : await this.#physicsRigOf(picked);
    if (imported) doc = { ...doc, rig: imported };
    this.#show(creature, doc, { path: null, fileName: null });
    const from = mjcf ? 'the MJCF (no mesh: the shapes are drawn)' : 'KHR_physics_rigid_bodies (draft)';
    this.editor.notify('info', `Opened ${picked.name}: ${this.editor.platform.creatures.boneNames(creature).length} bones${imported ? `; rig imported from ${from}: ${imported.bodies.length} bodies, ${imported.joints.length} joints` : ''}`);
    return ok();
  }

  async #mjcfRigOf(picked: PickedFile): Promise<RigDocument | null> {
    try {
      const { readMjcf } = await import('../export/mjcfImport');
      return readMjcf(decodeUtf8(picked.bytes), picked.name);
    } catch (e) {
      this.editor.notify('error', `Could not import ${picked.name}: ${thrownText(e)}`, 9000);
      return null;
    }
  }

  async #physicsRigOf(picked: PickedFile): Promise<RigDocument | null> {
    if (!/\.(glb|gltf)$/i.test(picked.name) || !containsAscii(picked.bytes, 'KHR_physics_rigid_bodies')) return null;
    try {
      const { importGltfBytes } = await import('../export');
      return (await importGltfBytes(picked.bytes as Uint8Array<ArrayBuffer>, picked.name, picked.resources as Record<string, Uint8Array<ArrayBuffer>>)).rig;
    } catch (e) {
      this.editor.notify('error', `Could not import the physics of ${picked.name}: ${thrownText(e)}`, 9000);
      return null;
    }
  }

  /** A built-in example by name, or an example file at `path`. */
  async openBuiltinCreature(name: string, path?: string): Promise<Result> {
    try {
      if (this.editor.platform.builtins.has(name)) {
        const { fileName, bytes } = await this.editor.platform.builtins.fetch(name);
        return await this.openCreatureFile({ name: fileName, path: null, bytes, resources: {} }, name);
      }
      if (path) return await this.openCreatureFile(await this.editor.platform.files.readCreature(path));
      return this.editor.fail('', { field: '', message: `Example "${name}" is not part of this build` });
    } catch (e) {
      return this.editor.fail('', { field: '', message: thrownText(e) });
    }
  }

  /** File › Open Creature…: the platform's dialog, then open. */
  async pickAndOpenCreature(): Promise<Result> {
    try {
      const picked = await this.editor.platform.files.pickCreature();
      return picked ? await this.openCreatureFile(picked) : cancelled();
    } catch (e) {
      return this.editor.fail('', { field: '', message: thrownText(e) });
    }
  }

  /** File › New: the default creature (or an empty editor when the build has none). */
  async newProject(): Promise<Result> {
    if (this.editor.platform.builtins.has(this.editor.platform.builtins.defaultName)) return this.openBuiltinCreature(this.editor.platform.builtins.defaultName);
    return (await this.closeDocument()) ? ok() : cancelled();
  }

  /** Close the document (asking about unsaved changes first). false when the user cancelled. */
  async closeDocument(): Promise<boolean> {
    if (!(await this.confirmDiscard())) return false;
    this.editor.replaceDocument(null, null, { path: null, fileName: null }, false, null, null);
    return true;
  }

  /** The creature a project refers to: built in, at its path, or — when it moved — wherever the user says. */
  async #findCreature(ref: ProjectCreature, projectName: string, projectPath: string | null): Promise<{ picked: PickedFile; relinked: boolean } | null> {
    if (ref.builtin && this.editor.platform.builtins.has(ref.builtin)) {
      const { fileName, bytes } = await this.editor.platform.builtins.fetch(ref.builtin);
      return { picked: { name: fileName, path: null, bytes, resources: {} }, relinked: false };
    }
    let where = ref.name;
    if (ref.path) {
      where = resolveCreaturePath(projectPath, ref.path);
      try {
        return { picked: await this.editor.platform.files.readCreature(where), relinked: false };
      } catch { /* moved, deleted or (browser) not stored here: ask below */ }
    }
    const choice = await this.editor.platform.ask('Creature file not found', `${projectName} uses the creature "${where}", which cannot be found. Where is it now?`, ['Locate…', 'Cancel']);
    if (choice !== 'Locate…') return null;
    const picked = await this.editor.platform.files.pickCreature({ missingPath: where });
    return picked ? { picked, relinked: true } : null;
  }

  /** Open a project from its text (a file, a recent entry, the autosave). */
  async openProjectText(text: string, name: string, path: string | null, opts: { fromAutosave?: boolean } = {}): Promise<Result> {
    try {
      const project = parseProject(text, name);
      const rig = project.rig as EditorDocument['rig'];
      if (!Array.isArray(rig.skeleton?.bones)) return this.editor.fail('Could not open ', { field: `${name}: rig.skeleton.bones`, message: 'missing (not a rig document)' });
      const found = await this.#findCreature(project.creature, name, path);
      if (!found) return this.editor.fail('', { field: name, message: 'not opened (its creature file was not found)' });
      const loaded = await this.#load(found.picked.name, found.picked.bytes, found.picked.resources);
      if (!loaded.ok) return loaded;
      const storedPath = project.creature.path ? resolveCreaturePath(path, project.creature.path) : null;
      let doc: EditorDocument = { creature: { ...project.creature, path: storedPath }, rig };
      if (found.relinked) doc = relinkCreature(doc, { name: found.picked.name, path: found.picked.path ?? found.picked.name });
      const file = opts.fromAutosave ? { path: null, fileName: null } : { path, fileName: name };
      this.#show(loaded.value, doc, file, found.relinked || !!opts.fromAutosave, project.session ?? null);
      // The preview inputs saved with it (version 2) go back on the timeline; a project without any clears it.
      const restored = this.#restoreInputs(doc.rig, project.preview?.inputs ?? []);
      this.editor.notify('info', `${opts.fromAutosave ? `Restored the autosaved "${doc.rig.name}"` : `Opened project ${name}`}${restored}`);
      return ok();
    } catch (e) {
      return this.editor.fail('Could not open ', { field: '', message: thrownText(e) });
    }
  }

  /** A project's preview inputs onto the timeline; returns what to add to the "Opened" notice. */
  #restoreInputs(rig: RigDocument, inputs: readonly PreviewInput[]): string {
    const preview = this.editor.platform.preview;
    if (!preview?.replace) return inputs.length ? `; its ${inputs.length} preview input${inputs.length === 1 ? ' was' : 's were'} not restored (the preview is not running)` : '';
    const { kept, dropped } = inputsForRig(rig, inputs);
    try { preview.replace(kept); } catch (e) {
      return `; its preview inputs were not restored (${thrownText(e)})`;
    }
    this.editor.inputsSaved(kept);
    if (dropped.length) this.editor.notify('error', `${dropped.length} saved preview input${dropped.length === 1 ? ' was' : 's were'} left out: ${dropped.slice(0, 4).join('; ')}${dropped.length > 4 ? '; …' : ''}`);
    return kept.length ? ` with ${kept.length} preview input${kept.length === 1 ? '' : 's'} (pokes, blasts, grabs, limp switches)` : '';
  }

  /** File › Open Project…. */
  async pickAndOpenProject(): Promise<Result> {
    if (!(await this.confirmDiscard())) return cancelled();
    try {
      const p = await this.editor.platform.files.pickProject();
      return p ? await this.openProjectText(p.text, p.name, p.path) : cancelled();
    } catch (e) {
      return this.editor.fail('', { field: '', message: thrownText(e) });
    }
  }

  async openRecent(entry: { kind: 'project' | 'creature'; path: string; name: string }): Promise<Result> {
    try {
      if (entry.kind === 'project') {
        if (!(await this.confirmDiscard())) return cancelled();
        const p = await this.editor.platform.files.readProject(entry.path);
        return await this.openProjectText(p.text, p.name, p.path);
      }
      return await this.openCreatureFile(await this.editor.platform.files.readCreature(entry.path));
    } catch (e) {
      return this.editor.fail('', { field: '', message: thrownText(e) });
    }
  }

  /** The project file's text for the current document, creature paths relative to `projectPath`. */
  projectText(projectPath: string | null = this.editor.getState().file.path): Result<string> {
    const doc = this.editor.document;
    if (!doc) return err('Nothing to save', 'no creature is open.');
    const creature = doc.creature.path ? { ...doc.creature, path: creaturePathForProject(projectPath, doc.creature.path) } : doc.creature;
    let inputs: PreviewInput[] = [];
    try { inputs = this.editor.platform.preview?.list?.() ?? []; } catch { /* no preview: nothing to keep */ }
    return ok(serializeProject({
      creature,
      rig: doc.rig,
      session: { selectedBone: selectedBoneName(this.editor.selection), ...this.editor.platform.viewSession() },
      ...(inputs.length ? { preview: { inputs } } : {}),
    }));
  }

  /** Save (or Save As when `as` or never saved). ok when the document is now on disk. */
  async save(as: boolean): Promise<Result<{ path: string; name: string }>> {
    const { file } = this.editor.getState();
    const path = as ? null : file.path;
    try {
      const text = this.projectText(path);
      if (!text.ok) return this.editor.fail('Could not save: ', text.error);
      const result = await this.editor.platform.files.saveProject(text.value, path, file.fileName ?? projectFileName(this.editor.documentName));
      if (!result) return cancelled();
      this.editor.markSaved({ path: result.path, fileName: result.name });
      this.editor.notify('info', `Saved ${result.name}`);
      void this.editor.platform.files.clearAutosave().catch(() => undefined);
      void this.editor.platform.files.addRecent({ kind: 'project', path: result.path, name: result.name }).catch(() => undefined);
      return ok(result);
    } catch (e) {
      return this.editor.fail('Could not save: ', { field: '', message: thrownText(e) });
    }
  }

  /**
   * File › Export: the rig as the game runtime reads it (rig JSON with computed blocks), as MJCF for MuJoCo,
   * or as glTF with the draft KHR physics extensions on the creature's own glTF (skin, mesh, animations) —
   * the same shared/export module as `marionette export`. ok with where it went (null: cancelled).
   */
  async exportRig(format: ExportFileFormat = 'rig'): Promise<Result<{ path: string; name: string } | null>> {
    const doc = this.editor.document;
    if (!doc) return this.editor.fail('', { field: 'Nothing to export', message: 'no creature is open.' });
    try {
      const validation = validateRig(stripComputed(doc.rig));
      if (!validation.ok) {
        const first = validation.problems[0];
        throw new Error(`the rig is not complete yet (${first ? formatProblem(first) : 'invalid'})${validation.problems.length > 1 ? ` and ${validation.problems.length - 1} more problem(s)` : ''}`);
      }
      if (format === 'rig') {
        // The rig JSON needs no glTF machinery: no lazy chunk to load.
        const r = await this.editor.platform.files.exportRig(writeRigJson(validation.rig), `${doc.rig.name}.rig.json`, 'rig');
        if (r) this.editor.notify('info', `Exported ${r.name}`);
        return ok(r);
      }
      const { exportRig: exportAs, gltfIO, CreatureUnitsError } = await import('../export');
      let creature;
      const source = this.editor.creature ? this.sources.get(this.editor.creature) : undefined;
      let note = '';
      if (format === 'gltf' && source) {
        const lower = source.name.toLowerCase();
        if (lower.endsWith('.glb')) creature = await gltfIO().readBinary(source.bytes as Uint8Array<ArrayBuffer>);
        else if (lower.endsWith('.gltf')) creature = await gltfIO().readJSON({ json: JSON.parse(decodeUtf8(source.bytes)), resources: source.resources as Record<string, Uint8Array<ArrayBuffer>> });
        else note = ` (the ${source.name.split('.').pop()!.toUpperCase()} creature's mesh is not carried: open it as glTF to include it)`;
      }
      let result;
      try { result = await exportAs(validation.rig, format, { creature }); } catch (e) {
        if (!(e instanceof CreatureUnitsError)) throw e;
        result = await exportAs(validation.rig, format);
        note = ` (without the creature's mesh: ${e.message})`;
      }
      const suggested = format === 'mjcf' ? `${doc.rig.name}.xml` : `${doc.rig.name}.glb`;
      const r = await this.editor.platform.files.exportRig(result.data, suggested, format);
      const draft = format === 'gltf' ? ' — KHR_physics_rigid_bodies and KHR_implicit_shapes are draft extensions' : '';
      const losses = result.losses ? `; ${result.losses.approximated.length} approximations and ${result.losses.lost.length} losses listed in the file` : '';
      if (r) this.editor.notify('info', `Exported ${r.name}${draft}${losses}${note}`);
      return ok(r);
    } catch (e) {
      return this.editor.fail('', { field: `Could not export ${doc.rig.name}`, message: thrownText(e) });
    }
  }

  /** Write the autosave when there are unsaved changes (the app calls this every AUTOSAVE_INTERVAL_MS). */
  async autosave(): Promise<Result> {
    if (!this.editor.dirty) return ok();
    // projectText(null): the creature path stays absolute, so a recovered document (which has no project
    // path to resolve a relative one against) finds its creature.
    const text = this.projectText(null);
    if (!text.ok) return text;
    try {
      await this.editor.platform.files.writeAutosave(text.value);
      return ok();
    } catch (e) {
      this.editor.setStatus(`Autosave failed: ${thrownText(e)}`);
      return err('Autosave', thrownText(e));
    }
  }

  /** At start: offer the autosave of a session that closed with unsaved changes, else New. */
  async startup(): Promise<Result> {
    try {
      const auto = await this.editor.platform.files.readAutosave();
      if (auto) {
        const when = new Date(auto.savedAt).toLocaleString();
        const choice = await this.editor.platform.ask('Restore unsaved work?', `Marionette closed with unsaved changes (autosaved ${when}). Restore them?`, ['Restore', 'Discard']);
        if (choice === 'Restore' && (await this.openProjectText(auto.text, 'autosave', null, { fromAutosave: true })).ok) return ok();
        await this.editor.platform.files.clearAutosave();
      }
    } catch (e) {
      this.editor.notify('error', `Could not read the autosave: ${thrownText(e)}`);
    }
    return this.newProject();
  }
}

function containsAscii(bytes: Uint8Array, text: string): boolean {
  const first = text.charCodeAt(0);
  outer: for (let i = bytes.indexOf(first); i >= 0 && i <= bytes.length - text.length; i = bytes.indexOf(first, i + 1)) {
    for (let k = 1; k < text.length; k++) if (bytes[i + k] !== text.charCodeAt(k)) continue outer;
    return true;
  }
  return false;
}
