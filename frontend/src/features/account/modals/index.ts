// The account's modals, one lazy chunk (app/shell/modalBodies.ts imports this module): each modal is in its own file.
export { EmailConsent } from './EmailConsent'
export { ConvertVipUser } from './ConvertVipUser'
export { TandemAccountCreation } from './TandemAccountCreation'
export { CamsConsent } from './CamsConsent'
