/** The Khronos glTF-Validator (npm gltf-validator) as a judge of exported GLB bytes. */
import validator, { type ValidationReport } from 'gltf-validator';

export async function validateGlb(bytes: Uint8Array): Promise<ValidationReport> {
  return validator.validateBytes(bytes, { maxIssues: 200 });
}
