// What other features use of the subscription feature: the key of a purchase attempt.
export { newIdempotencyKey } from './purchase'
