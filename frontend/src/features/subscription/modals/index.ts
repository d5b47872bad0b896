// The membership modals, one lazy chunk (app/shell/modalBodies.ts imports this module): each modal is in its own
// file.
export { SubscriptionStatus } from './SubscriptionStatus'
export { PurchaseMembership } from './PurchaseMembership'
export { ReactivateCancelledRebill } from './ReactivateCancelledRebill'
export { UpgradeToYearlyMembership } from './UpgradeToYearlyMembership'
export { PromotionalVideo } from './PromotionalVideo'
