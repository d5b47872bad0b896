import { useContext, useEffect } from 'react'
import { UNSAFE_LocationContext } from 'react-router'
import { useSessionIfAny } from '../session/SessionContext'
import { applyHead, canonicalUrl, pageHead, rowOf, type Shown } from './head'

/** Keeps the document's head that of the page on show (./head.ts); outside the root layout, only the title. */
export function useDocumentHead(status: 200 | 404 | 500, shown?: Shown, fallbackTitle?: string): void {
  const session = useSessionIfAny()
  const site = session?.tenant.site
  const tourUrl = session?.tenant.tourUrl
  const isMembersArea = session?.isMembersArea ?? false
  // The router's location (a memory router's too); outside any router, the window's.
  const routed = (useContext(UNSAFE_LocationContext) as { location?: { pathname: string; search: string } } | null)?.location
  const pathname = routed?.pathname ?? window.location.pathname
  const search = routed?.search ?? window.location.search
  const name = shown?.name
  const description = shown?.description
  useEffect(() => {
    if (site === undefined || tourUrl === undefined) {
      if (fallbackTitle !== undefined) document.title = fallbackTitle
      return
    }
    const row = rowOf(pathname)
    const brand = row === '/sites/:brand/:type' ? pathname.split('/')[2] : undefined
    const shownNow = name === undefined ? undefined : { name, description }
    const head = pageHead({ row, site, status, isMembersArea, shown: shownNow, brand })
    applyHead(document, head, canonicalUrl(tourUrl, pathname, search))
  }, [site, tourUrl, isMembersArea, status, name, description, fallbackTitle, pathname, search])
}
