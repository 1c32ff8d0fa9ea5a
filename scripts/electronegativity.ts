#!/usr/bin/env node
/**
 * Electronegativity (Doyensec's Electron security scanner, npm @doyensec/electronegativity) over what ships
 * to the main and preload processes: electron/*.ts, index.html with the policy the build writes into it
 * (scripts/cspMeta.ts), and package.json (for the Electron version). Fails on any HIGH or MEDIUM finding
 * of FIRM or CERTAIN confidence; prints every finding. Run by tests/unit/electron/electronegativity.test.ts
 * (so by `npm test` and CI) and by hand: `npx tsx scripts/electronegativity.ts [--json]`.
 *
 * Findings are silenced only in the source, next to the code, with `eng-disable CHECK_ID` and the reason
 * (docs/security.md lists them).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withCspMeta } from './cspMeta';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** Severities and confidences that fail the scan. */
export interface Finding { issue: string; severity: string; confidence: string; file: string; location: string; sample: string; description: string }

export const BLOCKING = { severity: ['HIGH', 'MEDIUM'], confidence: ['FIRM', 'CERTAIN'] };

function parseCsv(text: string): Finding[] {
  const rows: Finding[] = [];
  for (const line of text.split('\n').slice(1)) {
    if (line.trim() === '') continue;
    const cells: string[] = [];
    let cell = '', quoted = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (quoted) {
        if (c === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === ',') { cells.push(cell.trim()); cell = ''; } else cell += c;
    }
    cells.push(cell.trim());
    const [issue, severity, confidence, file, location, sample, description] = cells;
    rows.push({ issue: issue ?? '', severity: severity ?? '', confidence: confidence ?? '', file: file ?? '', location: location ?? '', sample: sample ?? '', description: description ?? '' });
  }
  return rows;
}

/** Run electronegativity on `input` (a folder); the findings, each { issue, severity, confidence, file, location, description }. */
export function scan(input: string): Finding[] {
  const bin = path.join(path.dirname(require.resolve('@doyensec/electronegativity/package.json')), 'dist', 'index.js');
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'eneg-out-')), 'findings.csv');
  try {
    const run = spawnSync(process.execPath, [bin, '-i', input, '-r', '-v', 'false', '-o', out], { encoding: 'utf8', timeout: 240_000 });
    if (run.status !== 0) throw new Error(`electronegativity failed (${run.status ?? run.signal}): ${run.stderr || run.stdout}`);
    return parseCsv(readFileSync(out, 'utf8'));
  } finally {
    rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

export const blocking = (findings: readonly Finding[]): Finding[] => findings.filter((f) => BLOCKING.severity.includes(f.severity) && BLOCKING.confidence.includes(f.confidence));

/** The shipped main/preload sources, the built index.html and package.json, staged in a temp folder. */
export function stageApp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'eneg-app-'));
  cpSync(path.join(root, 'electron'), path.join(dir, 'electron'), { recursive: true });
  for (const name of readdirSync(path.join(dir, 'electron'))) if (!name.endsWith('.ts')) rmSync(path.join(dir, 'electron', name), { recursive: true });
  cpSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  writeFileSync(path.join(dir, 'index.html'), withCspMeta(readFileSync(path.join(root, 'renderer', 'index.html'), 'utf8'), false));
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = stageApp();
  try {
    const findings = scan(dir);
    const bad = blocking(findings);
    if (process.argv.includes('--json')) console.log(JSON.stringify({ findings, blocking: bad.length }));
    else {
      for (const f of findings) console.log(`${f.severity.padEnd(13)} ${f.confidence.padEnd(10)} ${f.issue} ${f.file}:${f.location} ${f.description}`);
      console.log(`electronegativity: ${findings.length} finding(s), ${bad.length} HIGH/MEDIUM of FIRM/CERTAIN confidence`);
    }
    process.exitCode = bad.length === 0 ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
