/** Native file dialogs. Each remembers nothing itself; `lastFolder` keeps them starting where the user was. */
import { dialog, type BrowserWindow } from 'electron';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { PROJECT_EXTENSION } from '../shared/project';
import { withExtension } from './files';

export class Dialogs {
  private lastFolder: string | null = null;

  constructor(private readonly window: () => BrowserWindow | null, private readonly documentsFolder: string) {}

  private remember(file: string): string {
    this.lastFolder = path.dirname(file);
    return file;
  }

  private startFolder(): string {
    return this.lastFolder ?? this.documentsFolder;
  }

  private async open(options: Electron.OpenDialogOptions): Promise<string | null> {
    const win = this.window();
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    const file = result.canceled ? undefined : result.filePaths[0];
    return file === undefined ? null : this.remember(file);
  }

  private async save(options: Electron.SaveDialogOptions, extension: string): Promise<string | null> {
    const win = this.window();
    const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    if (result.canceled || !result.filePath) return null;
    return this.remember(withExtension(result.filePath, extension));
  }

  chooseCreature(missingPath: string | undefined): Promise<string | null> {
    const missingFolder = missingPath === undefined ? null : path.dirname(missingPath);
    return this.open({
      title: missingPath === undefined ? 'Open Creature' : `Where is ${path.basename(missingPath)}?`,
      message: missingPath === undefined ? undefined : `The project's creature is no longer at ${missingPath}. Find it to continue.`,
      defaultPath: missingFolder !== null && existsSync(missingFolder) ? missingFolder : this.startFolder(),
      filters: [{ name: 'Creatures (glTF, FBX, MuJoCo MJCF)', extensions: ['glb', 'gltf', 'fbx', 'xml'] }],
      properties: ['openFile'],
    });
  }

  chooseProject(purpose?: 'apply-rig'): Promise<string | null> {
    return this.open({
      title: purpose === 'apply-rig' ? 'Apply Rig From (a rig JSON or a project)' : 'Open Project',
      defaultPath: this.startFolder(),
      filters: purpose === 'apply-rig'
        ? [{ name: 'Rig JSON', extensions: ['json'] }, { name: 'Marionette Projects', extensions: [PROJECT_EXTENSION] }]
        : [{ name: 'Marionette Projects', extensions: [PROJECT_EXTENSION] }, { name: 'Rig JSON', extensions: ['json'] }],
      properties: ['openFile'],
    });
  }

  chooseSaveProject(suggestedName: string): Promise<string | null> {
    return this.save({
      title: 'Save Project',
      defaultPath: path.join(this.startFolder(), withExtension(suggestedName, PROJECT_EXTENSION)),
      filters: [{ name: 'Marionette Projects', extensions: [PROJECT_EXTENSION] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    }, PROJECT_EXTENSION);
  }

  chooseExportRig(suggestedName: string, format: 'rig' | 'mjcf' | 'gltf' = 'rig'): Promise<string | null> {
    const kind = {
      rig: { title: 'Export Rig JSON', name: 'Rig JSON', ext: 'json' },
      mjcf: { title: 'Export MJCF (MuJoCo)', name: 'MJCF (MuJoCo XML)', ext: 'xml' },
      gltf: { title: 'Export glTF with KHR Physics (draft extensions)', name: 'glTF Binary', ext: 'glb' },
    }[format];
    return this.save({
      title: kind.title,
      defaultPath: path.join(this.startFolder(), withExtension(suggestedName, kind.ext)),
      filters: [{ name: kind.name, extensions: [kind.ext] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    }, kind.ext);
  }

  private async confirm(options: Electron.MessageBoxOptions): Promise<boolean> {
    const win = this.window();
    const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
    return response === 0;
  }

  /** A creature file dropped on the window (the page says so; main cannot see the drop): the user confirms.
   *  Cancel is the default: a dialog the user did not expect is answered by Escape or Enter. */
  confirmDroppedCreature(file: string): Promise<boolean> {
    return this.confirm({
      type: 'question',
      buttons: ['Open', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
      message: `Open the dropped creature ${path.basename(file)}?`,
      detail: `${file}\n\nMarionette reads this file and the buffers and images beside it that it names. If you did not just drop this file on the window, choose Cancel.`,
    });
  }

  /** An opened project names its creature outside the project's folder: open that file too? */
  confirmOutsideCreature(projectPath: string, creaturePath: string): Promise<boolean> {
    return this.confirm({
      type: 'warning',
      buttons: ['Open Creature', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
      message: `${path.basename(projectPath)} uses a creature outside its folder. Open it?`,
      detail: `Creature: ${creaturePath}\nProject folder: ${path.dirname(projectPath)}\n\nA project file from elsewhere can name any file on this computer as its creature. Open it only if you trust this project; Cancel does not open the project.`,
    });
  }

  /** Save / Don't Save / Cancel for a document with unsaved changes. */
  async askSaveChanges(win: BrowserWindow, name: string): Promise<'save' | 'discard' | 'cancel'> {
    const { response } = await dialog.showMessageBox(win, {
      type: 'warning',
      buttons: ['Save', "Don't Save", 'Cancel'],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
      message: `Do you want to save the changes you made to ${name || 'this project'}?`,
      detail: "Your changes will be lost if you don't save them.",
    });
    return response === 0 ? 'save' : response === 1 ? 'discard' : 'cancel';
  }
}
