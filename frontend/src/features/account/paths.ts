// The account feature's own paths that other screens link to.

/** Where a signed-in user without a username chooses one. */
export const USERNAME_PATH = '/account/username'
