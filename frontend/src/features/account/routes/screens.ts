// The account routes' screens, one lazy chunk (./index.ts imports this module): the account screen and the username
// selection screen, each in its own file.
export { AccountScreen } from './AccountScreen'
export { UsernameScreen } from './UsernameScreen'
