/** The part of the Khronos glTF-Validator's npm API the export tests use (the package ships no types). */
declare module 'gltf-validator' {
  export interface ValidationMessage { code: string; message: string; severity: number; pointer?: string }
  export interface ValidationReport { issues: { numErrors: number; numWarnings: number; numInfos: number; messages: ValidationMessage[] } }
  export function validateBytes(data: Uint8Array, options?: { maxIssues?: number; uri?: string }): Promise<ValidationReport>;
  const validator: { validateBytes: typeof validateBytes };
  export default validator;
}
