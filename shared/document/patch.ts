/**
 * Structural diffs of plain JSON documents, and applying them either way. Undo is built from these diffs
 * (tldraw's model): a user edit produces a new immutable document, the history records only what changed.
 * A change is the value at one path before and after; `undefined` means "absent" (a key added or removed).
 */
export type PathKey = string | number;
export type Path = readonly PathKey[];

export interface Change {
  readonly path: Path;
  readonly before: unknown;
  readonly after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Changes that turn `a` into `b`. Unchanged subtrees shared by reference are skipped without a walk, so
 * an edit of one field in a large document costs O(depth). Arrays of equal length diff element-wise;
 * an array whose length changed is replaced whole (bones and bodies are short lists; a whole-array change
 * keeps undo trivially correct for inserts and removals).
 */
export function diff(a: unknown, b: unknown, path: PathKey[] = [], out: Change[] = []): Change[] {
  if (Object.is(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) diff(a[i], b[i], [...path, i], out);
    return out;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of Object.keys(a)) diff(a[k], k in b ? b[k] : undefined, [...path, k], out);
    for (const k of Object.keys(b)) if (!(k in a)) out.push({ path: [...path, k], before: undefined, after: b[k] });
    return out;
  }
  out.push({ path, before: a, after: b });
  return out;
}

/** `root` with the value at `path` replaced by `value` (undefined removes an object key); copies only the spine. */
export function setIn(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    if (typeof head !== 'number') throw new Error(`patch path: expected an array index, got "${String(head)}"`);
    const copy = root.slice();
    copy[head] = setIn(root[head], rest, value);
    return copy;
  }
  if (isPlainObject(root)) {
    const copy: Record<string, unknown> = { ...root };
    const next = setIn(root[String(head)], rest, value);
    if (next === undefined) delete copy[String(head)];
    else copy[String(head)] = next;
    return copy;
  }
  if (root === undefined && rest.length === 0) return typeof head === 'number' ? Object.assign([], { [head]: value }) : { [head]: value };
  throw new Error(`patch path: cannot descend into ${root === null ? 'null' : typeof root} at "${String(head)}"`);
}

export function applyChanges<D>(doc: D, changes: readonly Change[], direction: 'forward' | 'backward'): D {
  let out: unknown = doc;
  if (direction === 'forward') for (const c of changes) out = setIn(out, c.path, c.after);
  else for (let i = changes.length - 1; i >= 0; i--) out = setIn(out, changes[i]!.path, changes[i]!.before);
  return out as D;
}
