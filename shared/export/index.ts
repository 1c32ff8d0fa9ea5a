/**
 * One export module for the CLI (`marionette export --format`) and the editor (File › Export): the rig
 * leaves Marionette as its own JSON (with `computed` blocks), MJCF for MuJoCo, or glTF with the draft
 * Khronos physics extensions; and comes back through the importers.
 */
import type { Document } from '@gltf-transform/core';
import type { RigDocument } from '../rig/schema';
import { GLTF_LOSSES, writeGlb } from './gltf';
import type { ExportLosses } from './losses';
import { buildMjcf, writeMjcf } from './mjcf';
import { writeRigJson } from './rig';

export { writeRigJson, withComputedMass, stripComputed, bodyMassProperties } from './rig';
export { writeMjcf, buildMjcf, type MjcfOptions, type MjcfModel, type MjcfActuator } from './mjcf';
export { writeGlb, buildGltfDocument, gltfIO, GLTF_LOSSES, CreatureUnitsError } from './gltf';
export { importGltfBytes, rigFromGltf, ImportError } from './gltfImport';
export { readMjcf, mjcfCreature, MjcfImportError } from './mjcfImport';
export { lossesText, type ExportLosses } from './losses';

export const EXPORT_FORMATS = ['rig', 'mjcf', 'gltf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FILE: Record<ExportFormat, { extension: string; mimeType: string; label: string }> = {
  rig: { extension: '.rig.json', mimeType: 'application/json', label: 'Rig JSON' },
  mjcf: { extension: '.xml', mimeType: 'application/xml', label: 'MJCF (MuJoCo)' },
  gltf: { extension: '.glb', mimeType: 'model/gltf-binary', label: 'glTF + KHR physics (draft)' },
};

export interface ExportResult {
  format: ExportFormat;
  /** Text for rig and mjcf, GLB bytes for gltf. */
  data: string | Uint8Array;
  losses: ExportLosses | null;
}

export interface ExportOptions {
  /** glTF only: the creature's document, whose skin, mesh and animations the export carries. Mutated. */
  creature?: Document;
}

export async function exportRig(rig: RigDocument, format: ExportFormat, options: ExportOptions = {}): Promise<ExportResult> {
  switch (format) {
    case 'rig': return { format, data: writeRigJson(rig), losses: null };
    case 'mjcf': return { format, data: writeMjcf(rig), losses: buildMjcf(rig).losses };
    case 'gltf': return { format, data: await writeGlb(rig, { creature: options.creature }), losses: GLTF_LOSSES };
  }
}
