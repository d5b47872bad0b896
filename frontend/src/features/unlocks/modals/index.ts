// The unlocks feature's modal, its lazy chunk (app/shell/modalBodies.ts imports this module): the modal is in its own
// file.
export { UnlockOrUpgradeMembership } from './UnlockOrUpgradeMembership'
