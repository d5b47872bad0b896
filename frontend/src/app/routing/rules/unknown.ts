import type { RouteOutcome } from '../outcome'
import { guarded } from '../table'
import { joinNowRule } from './members'

/** A path missing from the route table: the join route if it contains /joinnow, else not-found. */
export const unknownRouteRule = guarded('*', (input): RouteOutcome => joinNowRule(input))
