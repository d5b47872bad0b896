// Analytics events (product.md, "Analytics and affiliates": each page has an analytics label; product.md, "Analytics and affiliates": a
// leave event gets up to 300 ms before the browser goes): a page view per screen shown, and a leave when the
// visitor goes off to the join form or a partner. The gateway counts and logs them (POST /api/analytics/events).
import { useEffect } from 'react'
import { CSRF_HEADER } from './api/correlation'
import { analyticsLabel, type ScreenId } from './routing'
import { useCurrentScreen } from './shell/AutomaticModals'
import { waitForLeaveEvent } from '../features/signup/affiliate'

export const ANALYTICS_PATH = '/api/analytics/events'

export type AnalyticsEvent =
  | { event: 'page_view'; label: string }
  | { event: 'leave'; label: string; to: 'join' | 'partner'; ref?: string; elm?: string }

/** Sends one event; keepalive lets it outlive the page it leaves. Never throws. */
export function sendAnalytics(event: AnalyticsEvent, fetchImpl: typeof fetch = (input, init) => fetch(input, init)) {
  return fetchImpl(ANALYTICS_PATH, {
    method: 'POST',
    keepalive: true,
    credentials: 'include',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1' },
    body: JSON.stringify(event),
  }).catch(() => undefined)
}

/** Leaves for `href` once the leave event is sent, or after 300 ms, whichever comes first. */
export async function leaveFor(
  href: string,
  event: Extract<AnalyticsEvent, { event: 'leave' }>,
  go: (href: string) => void = (to) => window.location.assign(to),
  send: (event: AnalyticsEvent) => Promise<unknown> = sendAnalytics,
): Promise<void> {
  await waitForLeaveEvent(() => send(event))
  go(href)
}

/** A page view each time another screen shows. */
export function usePageViews(send: (event: AnalyticsEvent) => Promise<unknown> = sendAnalytics): void {
  const screen = useCurrentScreen()
  useEffect(() => {
    if (screen) void send({ event: 'page_view', label: analyticsLabel(screen as ScreenId) })
  }, [screen, send])
}
