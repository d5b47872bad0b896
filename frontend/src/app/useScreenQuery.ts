import { useSuspenseQuery } from '@apollo/client/react'
import { useLoaderData, useLocation } from 'react-router'
import type { PageOutcome } from './routing'
import type { AnyVariables, ScreenLocation, ScreenQuery, ScreenQueryFor } from './screenQuery'
import { useSession } from './session/SessionContext'

/** The loader's page data of the screen on show. */
export function usePageData<D>(): D {
  return (useLoaderData() as PageOutcome<D>).data
}

/**
 * The screen's query, read where the loader left it (the cache); it suspends only when the loader did not run it
 * (tests, or a client without preloading).
 */
export function useScreenQuery<TData, D>(
  screenQuery: (data: D, session: ReturnType<typeof useSession>, location: ScreenLocation) => ScreenQuery<TData, AnyVariables>,
) {
  const data = usePageData<D>()
  const session = useSession()
  const location = useLocation()
  const { query, variables } = screenQuery(data, session, location)
  return { page: data, result: useSuspenseQuery(query, { variables }).data as TData }
}

export type { ScreenQueryFor }
