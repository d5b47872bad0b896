// The loaders' side of a screen's query: run it before the page shows, its GraphQL errors as HTTP statuses for the
// shared loader error handler (NOT_FOUND → e404, UNAUTHENTICATED → members login, others → e500); FORBIDDEN (403)
// is the locked page, with the access-denied routing of product.md, "Access-denied routing".
import { CombinedGraphQLErrors, type ApolloClient } from '@apollo/client'
import { HttpError } from '../routing'
import type { DataScreen, LeadingImage } from '../screenQuery'
import type { RoutingSession } from '../session/bootstrap'
import { firstScreenSeeder, type FirstScreen } from './firstScreen'

const STATUS_BY_CODE: Readonly<Record<string, number>> = { NOT_FOUND: 404, UNAUTHENTICATED: 401, FORBIDDEN: 403 }

/** A GraphQL error whose code has an HTTP meaning, as an HttpError; anything else unchanged. */
export function asHttpError(error: unknown): unknown {
  if (!CombinedGraphQLErrors.is(error)) return error
  for (const graphQLError of error.errors) {
    const code = graphQLError.extensions?.code
    const status = typeof code === 'string' ? STATUS_BY_CODE[code] : undefined
    if (status !== undefined) return new HttpError(status, graphQLError.message)
  }
  return error
}

export type ScreenDataPreloader = (screen: DataScreen, data: unknown, request: Request) => Promise<void>

export function screenDataPreloader(
  client: ApolloClient,
  session: RoutingSession,
  firstScreen: FirstScreen | null = null,
): ScreenDataPreloader {
  const seed = firstScreenSeeder(client, firstScreen)
  return async (screen, data, request) => {
    const query = screen.screenQuery?.(data, session, new URL(request.url))
    if (!query) return
    // The landing page's answer came with the page: the query below then answers from the cache.
    seed(query, screen.pageAnswers)
    let result: unknown
    try {
      const fetchOptions = { signal: request.signal }
      result = (await client.query({ query: query.query, variables: query.variables, context: { fetchOptions } })).data
    } catch (error) {
      throw asHttpError(error)
    }
    if (result && screen.leadingImages) for (const image of screen.leadingImages(result, data)) preloadImage(document, image)
  }
}

/**
 * `<link rel="preload" as="image" fetchpriority="high">` for an image the page will show at once, with the same
 * srcset as its `<img>` (components/Picture), so the browser fetches the candidate the `<img>` will use.
 */
export function preloadImage(document: Document, image: LeadingImage): void {
  const srcset = image.highdpi ? `${image.src} 1x, ${image.highdpi.double} 2x, ${image.highdpi.triple} 3x` : undefined
  for (const existing of document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')) {
    if (existing.getAttribute('href') === image.src && existing.getAttribute('imagesrcset') === (srcset ?? null)) return
  }
  const link = document.createElement('link')
  link.rel = 'preload'
  link.setAttribute('as', 'image')
  link.setAttribute('href', image.src)
  if (srcset) link.setAttribute('imagesrcset', srcset)
  link.setAttribute('fetchpriority', 'high')
  document.head.appendChild(link)
}
