/**
 * Path arithmetic for project files, pure (no node:path: shared/ runs in the browser too). A project
 * stores its creature's path relative to the project file when both sit on the same root, so a project
 * folder can be moved or checked into git; otherwise absolute. Stored relative paths always use '/', so a
 * project saved on Windows opens on Linux and the other way round; absolute paths keep the native form.
 *
 * Both separators are accepted on input. Windows forms recognised: `C:\x`, `C:/x`, `\\server\share\x`.
 */

interface SplitPath {
  /** '' for relative, '/' for POSIX absolute, 'C:' for a drive, '\\\\server\\share' for UNC. */
  root: string;
  parts: string[];
  windows: boolean;
}

const DRIVE = /^([A-Za-z]):[\\/]/;
const UNC = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/;

function split(path: string): SplitPath {
  let root = '';
  let rest = path;
  let windows = false;
  const unc = UNC.exec(path);
  const drive = DRIVE.exec(path);
  if (unc) {
    root = `\\\\${unc[1]}\\${unc[2]}`;
    rest = path.slice(unc[0].length);
    windows = true;
  } else if (drive) {
    root = `${drive[1]!.toUpperCase()}:`;
    rest = path.slice(2);
    windows = true;
  } else if (path.startsWith('/')) {
    root = '/';
    rest = path.slice(1);
  } else if (path.includes('\\')) {
    windows = true;
  }
  return { root, parts: rest.split(/[\\/]+/).filter((p) => p.length > 0 && p !== '.'), windows };
}

/** Resolve '..' segments; '..' above an absolute root stays at the root (as the OS does). */
function normalizeParts(parts: readonly string[], absolute: boolean): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(part);
  }
  return out;
}

function join(root: string, parts: readonly string[], windows: boolean): string {
  const sep = windows ? '\\' : '/';
  if (root === '') return parts.join('/');
  if (root === '/') return `/${parts.join('/')}`;
  return `${root}${sep}${parts.join(sep)}`;
}

export function isAbsolutePath(path: string): boolean {
  return split(path).root !== '';
}

/** The folder part of a path ('/a/b/c.glb' → '/a/b'). */
export function dirnameOf(path: string): string {
  const s = split(path);
  return join(s.root, normalizeParts(s.parts, s.root !== '').slice(0, -1), s.windows);
}

/** The last segment of a path, either separator ('C:\\x\\mine.glb' → 'mine.glb'). */
export function basenameOf(path: string): string {
  const s = split(path);
  return s.parts[s.parts.length - 1] ?? '';
}

function sameRoot(a: SplitPath, b: SplitPath): boolean {
  return a.windows || b.windows ? a.root.toLowerCase() === b.root.toLowerCase() : a.root === b.root;
}

function samePart(a: string, b: string, windows: boolean): boolean {
  return windows ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * What to store for a creature at absolute `creaturePath` in a project saved at absolute `projectPath`:
 * the path relative to the project's folder ('/'-separated) when they share a root, else `creaturePath`
 * unchanged. With no project path yet (never saved) the absolute path is kept.
 */
export function creaturePathForProject(projectPath: string | null, creaturePath: string): string {
  if (projectPath === null || !isAbsolutePath(projectPath) || !isAbsolutePath(creaturePath)) return creaturePath;
  const from = split(projectPath);
  const to = split(creaturePath);
  if (!sameRoot(from, to)) return creaturePath;
  const windows = from.windows || to.windows;
  const fromDir = normalizeParts(from.parts, true).slice(0, -1);
  const target = normalizeParts(to.parts, true);
  let common = 0;
  while (common < fromDir.length && common < target.length && samePart(fromDir[common]!, target[common]!, windows)) common++;
  const up = fromDir.slice(common).map(() => '..');
  return [...up, ...target.slice(common)].join('/');
}

/**
 * Where a stored creature path points, given the project file's absolute path: absolute stored paths are
 * returned as they are; relative ones are joined to the project's folder in the project path's own style.
 * Without a project path a relative path cannot be resolved and is returned unchanged.
 */
export function resolveCreaturePath(projectPath: string | null, stored: string): string {
  if (isAbsolutePath(stored) || projectPath === null || !isAbsolutePath(projectPath)) return stored;
  const base = split(projectPath);
  const rel = split(stored);
  const parts = normalizeParts([...base.parts.slice(0, -1), ...rel.parts], true);
  return join(base.root, parts, base.windows);
}
