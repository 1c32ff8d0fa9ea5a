#!/usr/bin/env node
// `npm run package` runs this first: it says, before any build, whether this Node can package.
//
// - Node outside package.json's `engines` (the range every installed tool declares; vite/rolldown and the
//   lint's eslint-visitor-keys set it): refuse, naming the range.
// - Node older than what electron-builder's own toolchain declares (@electron/rebuild and node-abi, run
//   by electron-builder's native-dependency step): say so. On Node 20.20 that step and the packaging to an
//   unpacked app were run and work (DEVELOPERS.md, "Packaging"), so this is a notice, not a refusal; it
//   names the version to switch to if packaging fails here.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const node = process.versions.node;

/** The packages whose declared Node the packaging step needs. */
const PACKAGING_TOOLCHAIN = ['electron-builder', '@electron/rebuild', 'node-abi'];

/** `name`'s package.json as Node would find it from `dir` (node_modules folders upward); exports-proof. */
function packageJson(name, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const file = path.join(at, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    if (path.dirname(at) === at) throw new Error(`no node_modules/${name} above ${dir}`);
  }
}

function declared(name) {
  try {
    // Looked up from app-builder-lib, which is where electron-builder loads them from.
    const from = name === 'electron-builder' ? root : path.dirname(require.resolve('app-builder-lib/package.json'));
    const json = packageJson(name, from);
    return { name, version: json.version, range: json.engines?.node ?? null };
  } catch (error) {
    return { name, problem: error.message.split('\n')[0] };
  }
}

let semver;
try {
  semver = require('semver'); // installed with electron-builder
} catch {
  console.error('npm run package: electron-builder is not installed (no semver beside it); run npm install first.');
  process.exit(1);
}

if (!semver.satisfies(node, pkg.engines.node)) {
  console.error(`npm run package: Node ${node} is outside package.json's engines (node ${pkg.engines.node}); the build tools (vite, rolldown, the lint) declare that range. Install a Node in it (e.g. 22 LTS ≥ 22.13) and run npm ci again.`);
  process.exit(1);
}

const tools = PACKAGING_TOOLCHAIN.map(declared);
const missing = tools.filter((tool) => tool.problem);
if (missing.length > 0) {
  console.error(`npm run package: ${missing.map((tool) => `${tool.name} is not installed (${tool.problem})`).join('; ')}. Run npm install first.`);
  process.exit(1);
}
const older = tools.filter((tool) => tool.range && !semver.satisfies(node, tool.range));
if (older.length > 0) {
  console.warn([
    `npm run package: note: Node ${node} is older than electron-builder's toolchain declares: ${older.map((tool) => `${tool.name} ${tool.version} wants node ${tool.range}`).join(', ')}.`,
    '  On Node 20.20 its config, native-dependency and packaging steps were run to an unpacked app and work (DEVELOPERS.md, "Packaging");',
    `  if packaging fails on this Node, use Node ≥ ${older.map((tool) => semver.minVersion(tool.range)?.version ?? tool.range).sort(semver.rcompare)[0]} within package.json's engines (${pkg.engines.node}); npm run package then stays quiet.`,
  ].join('\n'));
} else {
  console.log(`npm run package: Node ${node} satisfies electron-builder's toolchain (${tools.map((tool) => `${tool.name} ${tool.version}`).join(', ')}).`);
}
