// The join call under a grid of videos (the videos list, top rated, awards).
import { useSession } from '../../../app/session/SessionContext'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { t } from '../../../app/i18n'
import '../copy'

export function GridJoin() {
  const { tenant } = useSession()
  return (
    <VisitorJoin elm="grid" campaign="grid" lead={t('join.lead_watch_every_video')}>
      {t('join.site', { site: tenant.site })}
    </VisitorJoin>
  )
}
