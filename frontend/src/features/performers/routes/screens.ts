// The performers routes' screens, one lazy chunk (./index.ts imports this module): the list and a performer's page,
// each in its own file.
export { PerformersScreen } from './PerformersScreen'
export { PerformerScreen } from './PerformerScreen'
