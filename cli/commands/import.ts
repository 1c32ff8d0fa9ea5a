/** marionette import <file.gltf | file.glb | file.xml> --out rig.json */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importGltfBytes, readMjcf, writeRigJson } from '../../shared/export';
import { parse, str } from '../args';
import { readTextFile } from '../files';
import { EXIT_INVALID, EXIT_OK, UsageError, type CliIO } from '../io';

export const summary = 'read a glTF with KHR physics or an MJCF (MuJoCo) file as a rig JSON';

export const help = `Usage: marionette import <file.glb | file.gltf | file.xml> --out <rig.json>

Reads the physics of another tool's file and writes it as a Marionette rig:

  .glb / .gltf   a glTF carrying the DRAFT KHR_physics_rigid_bodies and
                 KHR_implicit_shapes extensions: bodies on the motion nodes, their
                 colliders, joints with limits and drives (Marionette's own export
                 also carries extras.marionette, which makes the round trip exact)
  .xml           MJCF (MuJoCo): nested bodies, geoms, hinge / slide / ball joints,
                 position and velocity actuators, gravity and timestep

The rig is validated before it is written.

Options:
  --out FILE   where to write the rig JSON (required)
  -h, --help   show this help

Exit status: 0 written, 1 the file cannot be imported, 2 usage error.
`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(argv, { out: { type: 'string', short: 'o' } });
  if (values.help) { io.out(help); return EXIT_OK; }
  const out = str(values.out);
  if (positionals.length !== 1) throw new UsageError(`import takes one file, got ${positionals.length}`);
  if (out === undefined) throw new UsageError('import needs --out <rig.json>');
  const file = positionals[0]!;
  const lower = file.toLowerCase();
  let rig;
  try {
    if (lower.endsWith('.xml') || lower.endsWith('.mjcf')) {
      const read = readTextFile(file);
      if (!read.ok) { io.err(`${file}: ${read.message}\n`); return EXIT_INVALID; }
      rig = readMjcf(read.text, file);
    } else if (lower.endsWith('.glb') || lower.endsWith('.gltf')) {
      let bytes: Uint8Array<ArrayBuffer>;
      try { bytes = new Uint8Array(readFileSync(file)); } catch (e) { io.err(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})\n`); return EXIT_INVALID; }
      const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
      if (lower.endsWith('.gltf')) {
        // External buffers and images next to the .gltf.
        const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[]; images?: { uri?: string }[] };
        for (const r of [...(json.buffers ?? []), ...(json.images ?? [])]) {
          if (r.uri && !r.uri.startsWith('data:')) resources[r.uri] = new Uint8Array(readFileSync(join(dirname(file), decodeURIComponent(r.uri))));
        }
      }
      rig = (await importGltfBytes(bytes, file, resources)).rig;
    } else {
      throw new UsageError(`import reads .glb, .gltf or .xml (MJCF), got "${file}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    io.err(`${(e as Error).message}\n`);
    return EXIT_INVALID;
  }
  writeFileSync(out, writeRigJson(rig));
  io.out(`${out}: rig "${rig.name}" imported from ${file} — ${rig.bodies.length} bodies, ${rig.joints.length} joints\n`);
  return EXIT_OK;
}
