// The upgrade overlay over a video the user's membership does not open (product.md, "Roles and abilities": free limited trial, trials for videos
// they have not unlocked, expired and porn-portal users; never admins or active members). The ability may carry
// conditions (a trial's: not one of its unlocked videos), so it is asked of the video itself.
import { useMemo } from 'react'
import { buildAbility, subject } from '../../../app/session/ability'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { isMobileViewport, useViewportType } from '../../../app/theme/useViewport'
import { campaignSource } from '../../../app/routing'
import { PROMPT_ABILITIES } from '../abilities'
import { promptModal, upgradeOverlayAction } from '../prompts'
import '../upgrade.css'
import { t } from '../../../app/i18n'
import '../copy'

export function UpgradeOverlay({ video }: { video: { uuid: string } }) {
  const { abilityRules, user, tenant } = useSession()
  const { show } = useModals()
  const mobile = isMobileViewport(useViewportType())
  const ability = useMemo(() => buildAbility(abilityRules ?? []), [abilityRules])
  const [see, overlay] = PROMPT_ABILITIES.upgradeOverlay
  if (!ability.can(see, subject(overlay, { id: video.uuid }))) return null
  const action = upgradeOverlayAction(user.profile, campaignSource(tenant), mobile)
  return (
    <div className="upgrade-overlay" data-testid="upgrade-overlay">
      <p className="upgrade-overlay__message">{t('upgrade.overlay')}</p>
      <button type="button" className="button button--accent" onClick={() => show(promptModal(action))}>
        {action.label}
      </button>
    </div>
  )
}
