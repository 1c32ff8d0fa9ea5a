/** The Marionette runtime: build and run a Simulation from a RigDocument. */
export { createSimulation, simulationSolver, type SimulationSolver, type BonePose, type Simulation, type SimulationOptions, type SimulationSnapshot } from './simulation';
export {
  registerControllerType, controllerFactory, type ControllerContext, type ControllerFactories, type ControllerFactory,
  type ControllerInstance, type ControllerStep, type ControllerType,
} from './controllers';
export {
  traceColumns, traceRow, traceToCsv, csvHeader, flatFrameSize, frameFromFlat,
  type BodyFrame, type FrameLayout, type JointFrame, type Trace, type TraceFrame,
} from './trace';
export { FrameRecorder, type RecordableSimulation } from './recorder';
