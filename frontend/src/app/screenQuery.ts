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

/** An image the screen will show at once with high priority (its largest paint), as its query's answer names it. */
export interface LeadingImage {
  src: string
  highdpi?: { double: string; triple: string } | null
}

/** The images a screen leads with, from its query's answer and the loader's data. */
export type LeadingImagesFor<D = unknown> = (result: any, data: D) => readonly LeadingImage[]

export type DataScreen<D = unknown> = ComponentType & {
  screenQuery?: ScreenQueryFor<D>
  /** Fetched as soon as the query answers, while the page renders, instead of once the page is on screen. */
  leadingImages?: LeadingImagesFor<D>
}

/** Gives a screen component its query. */
export function withScreenQuery<D>(
  component: ComponentType,
  screenQuery: ScreenQueryFor<D>,
  leadingImages?: LeadingImagesFor<D>,
): DataScreen<D> {
  return Object.assign(component, { screenQuery, leadingImages })
}
