/** Reduced-coordinate (Featherstone articulated-body) solver core: spatial algebra, the tree model and its rig builder. */
export * from './spatial';
export * from './model';
export * from './fromRig';
export * from './drives';
export * from './world';
