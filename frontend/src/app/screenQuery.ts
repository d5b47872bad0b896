// A screen's one query (STYLE 13): the lazily loaded screen says which query its page needs from the loader's data;
// the route loader runs it before the page shows (so a NOT_FOUND is the e404 page and any failure goes through the
// shared loader error handler), and the screen reads the same query from the cache.
import type { TypedDocumentNode } from '@apollo/client'
import type { ComponentType } from 'react'
import type { RoutingSession } from './session/bootstrap'

/**
 * A screen query's variables, whatever they are. TypeScript has no existential types, and a typed document is
 * contravariant in its variables, so only `any` admits every screen's own variables type here; each screen's
 * query function is still checked against its document's variables where it builds them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyVariables = any

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
) => ScreenQuery<unknown, AnyVariables> | null

/** An image the screen will show at once with high priority (its largest paint), as its query's answer names it. */
export interface LeadingImage {
  src: string
  highdpi?: { double: string; triple: string } | null
}

/** The images a screen leads with, from its query's answer and the loader's data. */
export type LeadingImagesFor<D = unknown, R = unknown> = (result: R, data: D) => readonly LeadingImage[]

export type DataScreen<D = unknown> = ComponentType & {
  screenQuery?: ScreenQueryFor<D>
  /** Fetched as soon as the query answers, while the page renders, instead of once the page is on screen. */
  leadingImages?: LeadingImagesFor<D>
  /**
   * The queries the screen's parts ask as soon as its answer is there, which the page may carry with it (gateway
   * first_screen.rs `follow_ups`): seeded with the screen's own answer, each for exactly the variables it answers.
   */
  pageAnswers?: ReadonlyArray<TypedDocumentNode<unknown, AnyVariables>>
}

/** What a screen says besides its query: the images it leads with, and the answers its page may carry. */
export interface ScreenExtras<D, R> {
  leadingImages?: LeadingImagesFor<D, R>
  pageAnswers?: ReadonlyArray<TypedDocumentNode<unknown, AnyVariables>>
}

/** Gives a screen component its query. */
export function withScreenQuery<D, R = unknown>(
  component: ComponentType,
  screenQuery: (data: D, session: RoutingSession, location: ScreenLocation) => ScreenQuery<R, AnyVariables> | null,
  { leadingImages, pageAnswers }: ScreenExtras<D, R> = {},
): DataScreen<D> {
  // The result handed to leadingImages is the answer to this screen's own query, so it is an R.
  const images = leadingImages && ((result: unknown, data: D) => leadingImages(result as R, data))
  return Object.assign(component, { screenQuery, leadingImages: images, pageAnswers })
}
