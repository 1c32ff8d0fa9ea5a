// The single place the renderer gets its platform from (switches to platform/bridge.ts when it lands).
export { tempPlatform as platform } from './tempPlatform';
