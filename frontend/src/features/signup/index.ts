// What other features use of the signup feature: the affiliate cookies a join or an upsell carries, and how a join
// option's price reads.
export { documentCookies, storedNats } from './affiliate'
export { optionPrice, singleSiteOptions } from './prices'
