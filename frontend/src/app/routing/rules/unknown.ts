import type { RouteInput } from '../context'
import { notFound, type RouteOutcome } from '../outcome'
import { isJoinRoute, joinNowRule } from './members'

/** A path missing from the route table: the join route if it contains /joinnow, else not-found. */
export function unknownRouteRule(input: RouteInput): RouteOutcome {
  return isJoinRoute(input.pathname) ? joinNowRule(input) : notFound
}
