// What other features use of the upgrade prompts.
export { UpgradeOverlaySlot as UpgradeOverlay } from './components/UpgradeOverlaySlot'
export { FREE_TRIAL_VIDEOS_PATH } from './prompts'
