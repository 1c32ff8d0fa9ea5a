export * from './patch';
export * from './history';
export * from './editorDocument';
export * from './commands';
export * from './creatureSkeleton';
export * from './creatureClips';
