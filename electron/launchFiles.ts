/**
 * Files handed to the app by the OS (double-clicking a .marionette file, "Open with", `marionette x.glb`).
 * On Windows and Linux they arrive on the command line; on macOS through the 'open-file' event.
 */
import * as path from 'node:path';
import type { RecentEntry } from '../shared/platform';
import { creatureFormatOf } from '../shared/project';

/** The openable files among command-line arguments (flags and Chromium switches are skipped). */
export function filesFromArgv(argv: readonly string[], cwd: string): string[] {
  return argv
    .filter((arg) => !arg.startsWith('-') && (/\.marionette$/i.test(arg) || creatureFormatOf(arg) !== null))
    .map((arg) => path.resolve(cwd, arg));
}

/** The menu command that opens a launch file: the same path as choosing it from Open Recent. */
export function launchEntry(file: string, now: number): RecentEntry {
  return { kind: /\.marionette$/i.test(file) ? 'project' : 'creature', path: file, name: path.basename(file), openedAt: now };
}
