// A join call to action for visitors only, in one of the placements of the campaign suffixes (product.md, "Analytics and affiliates") (a grid, a home shelf,
// a model's page, the top banner): members see nothing. The link carries the placement's campaign, so the members host
// can tell which grid, shelf or model page a join came from (app/routing/campaign.ts).
import type { ReactNode } from 'react'
import type { CampaignPlacement } from '../app/routing'
import { useSession } from '../app/session/SessionContext'
import { JoinLink } from './JoinLink'

export interface VisitorJoinProps {
  /** The element the join form is told about (elm). */
  elm: string
  campaign: CampaignPlacement
  /** The sentence around the link, when there is one. */
  lead?: ReactNode
  className?: string
  children: ReactNode
}

export function VisitorJoin({ elm, campaign, lead, className, children }: VisitorJoinProps) {
  const { user } = useSession()
  if (user.isAuthenticated) return null
  return (
    <p className={className ?? 'join-cta'}>
      {lead ? <span className="join-cta__lead">{lead} </span> : null}
      <JoinLink elm={elm} campaign={campaign}>
        {children}
      </JoinLink>
    </p>
  )
}
