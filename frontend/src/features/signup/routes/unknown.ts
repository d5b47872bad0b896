import type { RouteOutcome } from '../../../app/routing/outcome'
import { guarded } from '../../../app/routing/table'
import { joinNowRule } from '../../deals/routes/rules'

/** A path missing from the route table: the join route if it contains /joinnow, else not-found. */
export const unknownRouteRule = guarded('*', (input): RouteOutcome => joinNowRule(input))
