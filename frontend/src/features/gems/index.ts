// What other features use of the gems feature.
export { PackUnlockButton } from './components/PackUnlockButton'
export { AccountGems } from './components/GemsEntry'
