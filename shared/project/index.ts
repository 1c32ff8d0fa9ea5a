export * from './projectFile';
export * from './paths';
export * from './gltfResources';
export { decodeUtf8 } from './utf8';
