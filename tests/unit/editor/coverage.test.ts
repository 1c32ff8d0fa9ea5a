/**
 * Every command of the headless editor has a headless test: each public method of the command objects
 * (files, edits, inputs, tools) and of the core is called somewhere in tests/unit/editor. A command added without
 * a test fails here, naming it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EditorCore, FileCommands, InputCommands, RigCommands, ToolCommands } from '../../../shared/editor';

const dir = new URL('./', import.meta.url);
const tests = readdirSync(dir).filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts').map((f) => readFileSync(new URL(f, dir), 'utf8')).join('\n');

const methods = (proto: object): string[] =>
  Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, n)?.value === 'function');

/** Core steps used by the command objects, not by views. */
const internal = new Set(['replaceDocument', 'setLoading', 'markSaved', 'fail', 'refuse', 'setMotorClipboard', 'emit', 'commit', 'notify', 'setStatus']);

describe('headless test coverage of the editor commands', () => {
  it.each([
    ['files', FileCommands.prototype, 'files'],
    ['edits', RigCommands.prototype, 'edits'],
    ['inputs', InputCommands.prototype, 'inputs'],
    ['tools', ToolCommands.prototype, 'tools'],
  ] as const)('every %s command is called in a test', (_, proto, via) => {
    const untested = methods(proto).filter((m) => !new RegExp(`\\.${via}\\.${m}\\(`).test(tests));
    expect(untested).toEqual([]);
  });

  it('every core command is called in a test', () => {
    const untested = methods(EditorCore.prototype).filter((m) => !internal.has(m) && !new RegExp(`\\.${m}\\(`).test(tests));
    expect(untested).toEqual([]);
  });
});
