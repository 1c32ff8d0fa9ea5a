/** The headless editor (docs/architecture.md): state, commands, change events; the platform injected. */
export { Editor } from './Editor';
export { EditorCore, noticeMs } from './core';
export { FileCommands } from './files';
export { RigCommands, DEFAULT_GENERATE, generateOptions, type GenerateSettings } from './rigCommands';
export { InputCommands, BLAST_RADIUS, inputsForRig } from './inputs';
export { ToolCommands, readRig, tuneLine, type TuneRequest, type TunePlan, type RigTransferReport } from './tools';
export { fieldMessage, type FieldUnit } from './fieldMessages';
export type { EditorPlatform, EditorFiles, CreatureLoader, Builtins, PreviewInputs } from './platform';
export * from './types';
