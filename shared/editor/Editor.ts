/**
 * The headless editor (the way tldraw's Editor sits under its React UI): one object holds the document,
 * selection, hover, history and motor clipboard, and every command the app has —
 *   editor.edit / editRig / undo / redo / beginGesture / select / hover (core.ts),
 *   editor.files.*  open creature / project, save, export, autosave, start-up (files.ts),
 *   editor.edits.*  generate, joints, bodies, mirror, presets, copy / paste, mass ratios, rescale, path, gait (rigCommands.ts),
 *   editor.inputs.* poke, blast, grab, limp on the preview; list / clear them (inputs.ts),
 *   editor.tools.*  Tune… (gains from a settle time) and Apply Rig From… (rig transfer) (tools.ts).
 * Every command returns a Result (types.ts) — never a throw for a refusal; `subscribe` delivers the change
 * events and notices. The platform (files, dialogs, the creature loader, the preview) is injected, so the
 * same editor runs under Electron, in the browser and in unit tests (tests/unit/editor/testEditor.ts).
 * `C` is the platform's creature object (three.js objects in the app), opaque here.
 */
import { EditorCore } from './core';
import { FileCommands } from './files';
import { InputCommands } from './inputs';
import type { EditorPlatform } from './platform';
import { RigCommands } from './rigCommands';
import { ToolCommands } from './tools';

export class Editor<C extends object> extends EditorCore<C> {
  readonly files: FileCommands<C>;
  readonly edits: RigCommands<C>;
  readonly inputs: InputCommands<C>;
  readonly tools: ToolCommands<C>;

  constructor(platform: EditorPlatform<C>) {
    super(platform);
    this.files = new FileCommands<C>(this);
    this.edits = new RigCommands<C>(this);
    this.inputs = new InputCommands<C>(this);
    this.tools = new ToolCommands<C>(this);
  }
}
