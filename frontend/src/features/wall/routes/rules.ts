// The wall route, switched on by the curator feature (rows: ./rows.json); off means not-found.
import { guarded, page, type RouteOutcome } from '../../../app/routing'

/** /wall (curator) */
export const wallRule = guarded('/wall', (): RouteOutcome => page('wall'))
