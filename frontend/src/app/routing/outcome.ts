import type { ScreenId } from './screens'
import { REDIRECT_DEFAULT, REDIRECT_PERMANENT } from './constants'

export type RedirectStatus = typeof REDIRECT_PERMANENT | typeof REDIRECT_DEFAULT

export interface PageOutcome<D = undefined> {
  kind: 'page'
  screen: ScreenId
  /** Navigation page id (product.md, "Screens and routes"), for content pages only. */
  pageId?: string
  data: D
  /**
   * The server refused the page's content to this user (FORBIDDEN): the route shows what is locked and the way in
   * (product.md, "Access-denied routing").
   */
  denied?: true
}

export interface RedirectOutcome {
  kind: 'redirect'
  status: RedirectStatus
  location: string
}

export interface NotFoundOutcome {
  kind: 'notFound'
}

export interface ErrorOutcome {
  kind: 'error'
  message: string
  /** Set when the error went to the error-reporting service; the error screen then offers "Fill a report". */
  errorReportId?: string
}

/** What a route loader decides before its screen shows (product.md, "Route errors and the error screen"). */
export type RouteOutcome<D = undefined> = PageOutcome<D> | RedirectOutcome | NotFoundOutcome | ErrorOutcome

/** An outcome that stops the route before its page: used by guards. */
export type StopOutcome = RedirectOutcome | NotFoundOutcome | ErrorOutcome

export function page(screen: ScreenId): PageOutcome<undefined>
export function page<D>(screen: ScreenId, data: D, pageId?: string): PageOutcome<D>
export function page<D>(screen: ScreenId, data?: D, pageId?: string): PageOutcome<D | undefined> {
  return pageId === undefined ? { kind: 'page', screen, data } : { kind: 'page', screen, data, pageId }
}

export function redirect(location: string, status: RedirectStatus = REDIRECT_DEFAULT): RedirectOutcome {
  return { kind: 'redirect', status, location }
}

export function movedPermanently(location: string): RedirectOutcome {
  return redirect(location, REDIRECT_PERMANENT)
}

export const notFound: NotFoundOutcome = Object.freeze({ kind: 'notFound' })

export function failure(message: string, errorReportId?: string): ErrorOutcome {
  return errorReportId === undefined ? { kind: 'error', message } : { kind: 'error', message, errorReportId }
}

/** The page, shown as locked: its content was refused to the user. */
export function deniedPage<D>(outcome: PageOutcome<D>): PageOutcome<D> {
  return { ...outcome, denied: true }
}
