// The deals routes' screens, one lazy chunk (./index.ts imports this module): each screen is in its own file.
export { DealsScreen } from './DealsScreen'
export { OffersScreen } from './OffersScreen'
export { OutgoingUpsellScreen } from './OutgoingUpsellScreen'
export { UpsellFailureScreen } from './UpsellFailureScreen'
export { UpsellSuccessScreen } from './UpsellSuccessScreen'
export { CamsScreen } from './CamsScreen'
