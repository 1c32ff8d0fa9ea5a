/** marionette schema — the JSON Schema (2020-12) of the rig format. */
import { writeFileSync } from 'node:fs';
import { rigJsonSchemaText } from '../../shared/rig';
import { parse, str } from '../args';
import { EXIT_OK, type CliIO } from '../io';

export const summary = 'print the rig format\'s JSON Schema (2020-12)';

export const help = `Usage: marionette schema [--out FILE]

Prints the JSON Schema (draft 2020-12) of the rig format, generated from the
same zod schema the runtime validates with. The committed copy is
shared/rig/rig.schema.json (published with the package as
marionette/rig.schema.json). The schema checks structure, types and ranges;
name references and cycles need \`marionette validate\`.

Options:
  --out FILE   write to FILE instead of stdout
  -h, --help   show this help
`;

export function run(argv: string[], io: CliIO): number {
  const { values } = parse(argv, { out: { type: 'string' } });
  if (values.help) { io.out(help); return EXIT_OK; }
  const text = rigJsonSchemaText();
  const out = str(values.out);
  if (out !== undefined) writeFileSync(out, text);
  else io.out(text);
  return EXIT_OK;
}
