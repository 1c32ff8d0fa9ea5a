/**
 * Undo/redo for the editor document, built from diffs (see patch.ts). No React, no store: the editor
 * drives it, tests drive it headless.
 *
 * Marks make a gesture one undo step: `mark()` at pointer-down, edits while dragging, then
 * `squashToMark(id)` at pointer-up merges them into one entry, or `bailToMark(id)` (Escape) reverts them.
 * Dirty tracking: every entry has an id; the document is clean when the entry on top of the undo stack is
 * the one that was current at the last save (so undoing back to the saved state makes it clean again).
 */
import { applyChanges, diff, type Change } from './patch';

export interface HistoryEntry {
  readonly id: number;
  readonly label: string;
  readonly changes: readonly Change[];
}

export class DocumentHistory<D> {
  private doc: D;
  private undoStack: HistoryEntry[] = [];
  private redoStack: HistoryEntry[] = [];
  private marks = new Map<string, number>();
  private nextId = 1;
  private savedHead = 0;
  private markCounter = 0;

  constructor(initial: D) {
    this.doc = initial;
  }

  get document(): D { return this.doc; }
  get canUndo(): boolean { return this.undoStack.length > 0; }
  get canRedo(): boolean { return this.redoStack.length > 0; }
  get undoLabel(): string | null { return this.undoStack.at(-1)?.label ?? null; }
  get redoLabel(): string | null { return this.redoStack.at(-1)?.label ?? null; }
  get dirty(): boolean { return this.head() !== this.savedHead; }
  get undoDepth(): number { return this.undoStack.length; }

  /** Apply a user edit. Returns false (and records nothing) when the edit changed nothing. */
  apply(label: string, update: (doc: D) => D): boolean {
    const next = update(this.doc);
    const changes = diff(this.doc, next);
    if (changes.length === 0) return false;
    this.doc = next;
    this.undoStack.push({ id: this.nextId++, label, changes });
    this.redoStack = [];
    return true;
  }

  undo(): boolean {
    const entry = this.undoStack.pop();
    if (!entry) return false;
    this.doc = applyChanges(this.doc, entry.changes, 'backward');
    this.redoStack.push(entry);
    this.dropMarksAbove(this.undoStack.length);
    return true;
  }

  redo(): boolean {
    const entry = this.redoStack.pop();
    if (!entry) return false;
    this.doc = applyChanges(this.doc, entry.changes, 'forward');
    this.undoStack.push(entry);
    return true;
  }

  /** Remember the current point; returns its id for squashToMark / bailToMark. */
  mark(id = `mark-${++this.markCounter}`): string {
    this.marks.set(id, this.undoStack.length);
    return id;
  }

  /** Merge every entry made since the mark into one undo step labelled `label`. */
  squashToMark(id: string, label?: string): void {
    const at = this.takeMark(id);
    if (at === undefined || this.undoStack.length <= at) return;
    const merged = this.undoStack.splice(at);
    const last = merged[merged.length - 1]!;
    this.undoStack.push({
      id: merged.length === 1 ? last.id : this.nextId++,
      label: label ?? last.label,
      changes: merged.flatMap((e) => e.changes),
    });
  }

  /** Revert (and forget) every entry made since the mark, e.g. when a drag is cancelled with Escape. */
  bailToMark(id: string): void {
    const at = this.takeMark(id);
    if (at === undefined) return;
    while (this.undoStack.length > at) {
      const entry = this.undoStack.pop()!;
      this.doc = applyChanges(this.doc, entry.changes, 'backward');
    }
  }

  /** The current state is what is on disk now. */
  markSaved(): void { this.savedHead = this.head(); }

  /** Start over with a new document (New, Open): nothing to undo, clean unless `dirty`. */
  reset(doc: D, dirty = false): void {
    this.doc = doc;
    this.undoStack = [];
    this.redoStack = [];
    this.marks.clear();
    this.savedHead = dirty ? -1 : 0;
  }

  private head(): number { return this.undoStack.at(-1)?.id ?? 0; }

  private takeMark(id: string): number | undefined {
    const at = this.marks.get(id);
    this.marks.delete(id);
    return at;
  }

  private dropMarksAbove(depth: number): void {
    for (const [id, at] of this.marks) if (at > depth) this.marks.delete(id);
  }
}
