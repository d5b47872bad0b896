// The deals' modals, one lazy chunk (app/shell/modalBodies.ts imports this module): each modal is in its own file.
export { OneClickConsent } from './OneClickConsent'
export { ConfirmOutgoingUpsell } from './ConfirmOutgoingUpsell'
