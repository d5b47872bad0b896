// A screen's one query (STYLE 13): the lazily loaded screen says which query its page needs from the loader's data;
// the route loader runs it before the page shows (so a NOT_FOUND is the e404 page and any failure goes through the
// shared loader error handler), and the screen reads the same query from the cache.
import type { TypedDocumentNode } from '@apollo/client'
import type { ComponentType } from 'react'
import type { RoutingSession } from './session/bootstrap'

export interface ScreenQuery<TData = unknown, TVariables extends Record<string, unknown> = Record<string, unknown>> {
  query: TypedDocumentNode<TData, TVariables>
  variables: TVariables
}

/** Where the page is: the loader's request URL, or the router's location in the screen. */
export interface ScreenLocation {
  pathname: string
  search: string
}

/** What the screen's query depends on: the loader's page data, the session (tenant, user) and the location. */
export type ScreenQueryFor<D = unknown> = (
  data: D,
  session: RoutingSession,
  location: ScreenLocation,
) => ScreenQuery<any, any> | null

export type DataScreen<D = unknown> = ComponentType & { screenQuery?: ScreenQueryFor<D> }

/** Gives a screen component its query. */
export function withScreenQuery<D>(component: ComponentType, screenQuery: ScreenQueryFor<D>): DataScreen<D> {
  return Object.assign(component, { screenQuery })
}
