// The signup routes' screens, one lazy chunk (./index.ts imports this module): each screen is in its own file.
export { JoinNowScreen } from './JoinNowScreen'
export { SignupSuccessScreen } from './SignupSuccessScreen'
export { SignupDeniedScreen } from './SignupDeniedScreen'
export { UpgradeMembershipScreen } from './UpgradeMembershipScreen'
export { ParentRedirectScreen } from './ParentRedirectScreen'
