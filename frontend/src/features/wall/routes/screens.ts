// The wall routes' screen, its lazy chunk (./index.ts imports this module): the screen is in its own file.
export { WallScreen } from './WallScreen'
