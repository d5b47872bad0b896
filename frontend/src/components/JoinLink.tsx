// A link to the members host's join form, telling it where the visitor came from: ref (the page), elm (the
// element, e.g. 'video-player'), the stored nats value when there is one, and the affiliate campaign of the link's
// placement when it has one (app/routing/campaign.ts). A plain click sends the analytics leave event first, and goes
// once it is sent or after 300 ms at most.
import type { MouseEvent, ReactNode } from 'react'
import { leaveFor } from '../app/analytics'
import { analyticsLabel, campaignFor, campaignSource, joinUrl, type CampaignPlacement } from '../app/routing'
import { useCurrentScreen } from '../app/shell/AutomaticModals'
import { useSession } from '../app/session/SessionContext'
import { isMobileViewport, useViewportType } from '../app/theme/useViewport'
import { documentCookies, storedAffiliateCodes, storedNats } from '../features/signup/affiliate'

export interface JoinLinkProps {
  elm: string
  campaign?: CampaignPlacement
  /** A campaign already made (the bar's or banner's that opened a modal); wins over `campaign`. */
  campaignCode?: string | null
  className?: string
  children: ReactNode
}

export function JoinLink({ elm, campaign, campaignCode, className, children }: JoinLinkProps) {
  const { tenant } = useSession()
  const ref = useCurrentScreen() ?? 'home'
  const mobile = isMobileViewport(useViewportType())
  const cookies = documentCookies()
  const href = joinUrl(tenant, {
    ref,
    elm,
    nats: storedNats(cookies),
    ...storedAffiliateCodes(cookies),
    campaign: campaignCode ?? (campaign ? campaignFor(campaignSource(tenant), campaign, mobile) : null),
  })
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    // A new tab or window keeps this page: nothing is leaving.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    void leaveFor(href, { event: 'leave', label: analyticsLabel(ref), to: 'join', ref, elm })
  }
  return (
    <a className={className ?? 'button button--accent join-link'} href={href} onClick={onClick}>
      {children}
    </a>
  )
}
