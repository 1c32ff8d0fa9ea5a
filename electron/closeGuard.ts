/**
 * The unsaved-changes prompt as a small state machine, kept apart from Electron so every path through it
 * is tested. Main feeds it the window's close requests, the renderer's dirty flag and the outcome of
 * saves; it answers what to do.
 *
 *   close requested, clean            → close
 *   close requested, dirty            → prompt: Save / Don't Save / Cancel
 *     Save      → ask the renderer to save; close once that save lands (or the document reports clean);
 *                 stay open if the save is cancelled or fails
 *     Don't Save→ close
 *     Cancel    → stay
 */
export type PromptChoice = 'save' | 'discard' | 'cancel';

export class CloseGuard {
  private dirty = false;
  private closeAfterSave = false;
  private closing = false;

  get isDirty(): boolean {
    return this.dirty;
  }

  /** The window wants to close: 'allow' it, or 'prompt' the user. */
  requestClose(): 'allow' | 'prompt' {
    return this.closing || !this.dirty ? 'allow' : 'prompt';
  }

  /** The user answered the prompt. 'save' → main sends the Save command; 'close' → main closes. */
  answer(choice: PromptChoice): 'save' | 'close' | 'stay' {
    if (choice === 'discard') {
      this.closing = true;
      return 'close';
    }
    if (choice === 'save') {
      this.closeAfterSave = true;
      return 'save';
    }
    return 'stay';
  }

  /** The renderer reported its dirty flag. Returns 'close' when a pending save-then-close has completed. */
  documentState(dirty: boolean): 'close' | null {
    this.dirty = dirty;
    return !dirty && this.closeAfterSave ? this.finish() : null;
  }

  /** A project save finished: 'saved' closes a pending save-then-close; 'cancelled'/'failed' abandon it. */
  saveFinished(outcome: 'saved' | 'cancelled' | 'failed'): 'close' | null {
    if (outcome === 'saved') {
      this.dirty = false;
      return this.closeAfterSave ? this.finish() : null;
    }
    this.closeAfterSave = false;
    return null;
  }

  private finish(): 'close' {
    this.closeAfterSave = false;
    this.closing = true;
    return 'close';
  }
}
