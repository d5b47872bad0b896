// The health warning overlay (product.md, "Modals and flashes"): full-screen black, the Texas or Alabama text, until acknowledged. The browser
// keeps the acknowledgement for visitors; a signed-in user's is recorded on their profile as well.
import { useApolloClient } from '@apollo/client/react'
import { useTranslation } from '../i18n'
import { useSession } from '../session/SessionContext'
import { acknowledgeLocally } from './healthWarningStore'
import type { ModalBodyProps } from './modalIds'

export function HealthWarningBody({ props, close }: ModalBodyProps<'HealthWarning'>) {
  const { t } = useTranslation()
  const { user } = useSession()
  const client = useApolloClient()
  const { region } = props
  return (
    <div className="health-warning" data-region={region}>
      <p>{t(`health_warning.${region}`)}</p>
      <p>{t('health_warning.helpline')}</p>
      <button
        type="button"
        className="button button--accent"
        onClick={() => {
          acknowledgeLocally(region)
          if (user.isAuthenticated) {
            void import('../../features/account/healthWarning')
              .then((module) => module.acknowledgeHealthWarningOnProfile(client, region))
              .catch(() => undefined)
          }
          close()
        }}
      >
        {t('health_warning.acknowledge')}
      </button>
    </div>
  )
}
