import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }

/** Runs depcruise with the project's .dependency-cruiser.cjs on a tree of files; returns its violations. */
function cruise(cwd: string, folders: string[]): Violation[] {
  const result = spawnSync(process.execPath, [depcruise, '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', ...folders], {
    cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20,
  });
  expect(result.signal, result.stderr).toBeNull();
  const json = JSON.parse(result.stdout) as { summary: { violations: Violation[] } };
  return json.summary.violations;
}

// `npm run lint` (lint:arch) runs the same rules on the project itself; here they are shown to fire.
describe('architecture rules (.dependency-cruiser.cjs, run by npm run lint)', () => {
  it('each rule fires on a tree that breaks it: a cycle, shared/ importing the renderer, React, three, Node, and the renderer importing electron', () => {
    // Inside the checkout (.tmp/ is git-ignored) so packages resolve from the project's node_modules.
    mkdirSync(join(root, '.tmp'), { recursive: true });
    const tree = mkdtempSync(join(root, '.tmp', 'depcruise-'));
    const files: Record<string, string> = {
      'shared/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'shared/b.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n",
      'shared/ui.ts': "import { useState } from 'react';\nimport { Vector3 } from 'three';\nimport { readFileSync } from 'node:fs';\nimport { x } from '../renderer/x';\nexport const u = [useState, Vector3, readFileSync, x];\n",
      'renderer/x.ts': "import { app } from 'electron';\nimport { m } from '../electron/main';\nexport const x = [app, m];\n",
      'electron/main.ts': 'export const m = 1;\n',
      'cli/ok.ts': "import { a } from '../shared/a';\nexport const ok = a;\n",
    };
    try {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(tree, file)), { recursive: true });
        writeFileSync(join(tree, file), text);
      }
      copyFileSync(join(root, 'tsconfig.base.json'), join(tree, 'tsconfig.base.json'));
      const found = cruise(tree, ['shared', 'renderer', 'electron', 'cli']).map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^(\.\.\/)+/, '')}`).sort();
      expect(found).toEqual([
        'no-circular: shared/a.ts -> shared/b.ts', // one per cycle; b's import of a is type-only and still closes it
        'renderer-through-bridge: renderer/x.ts -> electron/main.ts',
        'renderer-through-bridge: renderer/x.ts -> node_modules/electron/index.js',
        'shared-imports-only-shared: shared/ui.ts -> renderer/x.ts',
        'shared-no-node: shared/ui.ts -> fs',
        'shared-no-ui-or-platform: shared/ui.ts -> node_modules/react/index.js',
        'shared-no-ui-or-platform: shared/ui.ts -> node_modules/three/build/three.module.js',
      ]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  }, 130_000);
});
