export * from './vec3';
export * from './quat';
export * from './transform';
export * from './mat4';
