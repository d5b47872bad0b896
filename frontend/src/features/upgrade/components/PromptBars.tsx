// The upgrade bar and the porn-portal bar above the page, for the users whose abilities hold them (prompts.ts).
// Loaded only for such users, so the first page of everyone else carries none of it.
import { Link } from 'react-router'
import { useCurrentScreen } from '../../../app/shell/AutomaticModals'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { isMobileViewport, useViewportType } from '../../../app/theme/useViewport'
import { campaignSource } from '../../../app/routing'
import { pornPortalBar, promptModal, upgradeBar, type PromptBar, type PromptFacts } from '../prompts'
import '../upgrade.css'
import { t } from '../../../app/i18n'
import '../copy'

function Bar({ bar, label, testId }: { bar: PromptBar; label: string; testId: string }) {
  const { show } = useModals()
  return (
    <aside className={`prompt-bar prompt-bar--${bar.kind}`} aria-label={label} data-testid={testId}>
      <p className="prompt-bar__message">{bar.message}</p>
      {bar.link ? (
        <Link to={bar.link.href} className="button prompt-bar__link" data-testid="prompt-bar-link">
          {bar.link.label}
        </Link>
      ) : null}
      <button type="button" className="button button--accent" onClick={() => show(promptModal(bar.action))}>
        {bar.action.label}
      </button>
    </aside>
  )
}

export default function PromptBars() {
  const { user, tenant } = useSession()
  const facts: PromptFacts = {
    can: user.can,
    profile: user.profile,
    screen: useCurrentScreen(),
    campaignSource: campaignSource(tenant),
    mobile: isMobileViewport(useViewportType()),
  }
  const upgrade = upgradeBar(facts, tenant.site)
  const pornPortal = pornPortalBar(facts, tenant.site)
  if (!upgrade && !pornPortal) return null
  return (
    <div className="prompt-bars">
      {upgrade ? <Bar bar={upgrade} label={t('upgrade.bar_upgrade')} testId="upgrade-bar" /> : null}
      {pornPortal ? <Bar bar={pornPortal} label={t('upgrade.bar_porn_portal')} testId="porn-portal-bar" /> : null}
    </div>
  )
}
