// What other features use of the account feature: the username screen's path.
export { USERNAME_PATH } from './paths'
