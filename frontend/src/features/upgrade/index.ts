// What other features use of the upgrade prompts.
export { UpgradeOverlay } from './components/UpgradeOverlay'
