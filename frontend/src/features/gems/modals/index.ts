// The gems modals, one lazy chunk (app/shell/modalBodies.ts imports this module): each modal is in its own file.
export { UnlockChannel } from './UnlockChannel'
export { UserGemsInfo } from './UserGemsInfo'
