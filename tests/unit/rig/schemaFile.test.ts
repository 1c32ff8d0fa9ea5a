import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { rigJsonSchema, rigJsonSchemaText } from '../../../shared/rig';
import { fixture, readJson, repo, shippedRigs } from './corpus';

describe('rig.schema.json', () => {
  it('is up to date with the zod schema (regenerate: npm run --silent cli -- schema --out shared/rig/rig.schema.json)', () => {
    expect(readFileSync(`${repo}shared/rig/rig.schema.json`, 'utf8')).toBe(rigJsonSchemaText());
  });

  it('documents every property (description present wherever a field is declared)', () => {
    const undocumented: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.properties && typeof n.properties === 'object') {
        for (const [k, v] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) {
          const documented = typeof v.description === 'string' || (Array.isArray(v.anyOf) && v.anyOf.some((o) => typeof (o as Record<string, unknown>).description === 'string'));
          // Fixed-value fields (units, axes, the union tags) document themselves by their constant.
          if (!documented && v.const === undefined) undocumented.push(`${path}.${k}`);
        }
      }
      for (const [k, v] of Object.entries(n)) walk(v, `${path}/${k}`);
    };
    walk(rigJsonSchema(), '');
    expect(undocumented).toEqual([]);
  });

  it('accepts the fixtures and rejects structural errors with a standard validator (ajv, 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(rigJsonSchema());
    for (const path of shippedRigs()) expect(validate(readJson(path)), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    for (const bad of ['nan-string.json', 'max-torque-negative.json', 'unknown-field.json', 'joint-type-unknown.json', 'units-centimetres.json']) {
      expect(validate(readJson(fixture(`bad-rigs/${bad}`))), bad).toBe(false);
    }
  });
});
