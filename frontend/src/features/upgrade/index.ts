// What other features use of the upgrade prompts.
export { UpgradeOverlaySlot as UpgradeOverlay } from './components/UpgradeOverlaySlot'
