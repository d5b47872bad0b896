// The angels routes' screens, one lazy chunk (./index.ts imports this module): the list and an angel's profile, each
// in its own file.
export { AngelsScreen } from './AngelsScreen'
export { AngelScreen } from './AngelScreen'
