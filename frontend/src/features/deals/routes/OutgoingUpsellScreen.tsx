// The outgoing one-click upsell (/oneclick/outgoing-upsell). It asks outgoingUpsellOneclick: the confirmation step
// opens ConfirmOutgoingUpsell, whose button comes back here with confirmed=1; then the member goes to the partner's
// member link (charged) or the fallback. The result pages are UpsellSuccessScreen.tsx and UpsellFailureScreen.tsx.
import { useMutation } from '@apollo/client/react'
import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import { signInUrl } from '../../../app/routing'
import type { OutgoingUpsellData } from './rules'
import { useModals } from '../../../app/shell/ModalManager'
import { usePageData } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { OutgoingUpsellOneclickDocument } from '../../../gql/graphql'
import { leavePage } from '../leavePage'
import { confirmationLinkFor, outgoingUpsellStep, outgoingUpsellVariables } from '../outgoingUpsell'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

function SignInFirst({ what }: { what: string }) {
  const { tenant } = useSession()
  const location = useLocation()
  return (
    <p>
      {t('deals.upsell.log_in_to', { what })}{' '}
      <a className="button button--accent" href={signInUrl(tenant, `${location.pathname}${location.search}`)}>
        {t('navigation.login')}
      </a>
    </p>
  )
}

type OutgoingState = { kind: 'working' } | { kind: 'confirming' } | { kind: 'leaving'; url: string; success: boolean } | { kind: 'denied' }

export function OutgoingUpsellScreen() {
  const data = usePageData<OutgoingUpsellData>()
  const { user } = useSession()
  const location = useLocation()
  const { open } = useModals()
  const [buy] = useMutation(OutgoingUpsellOneclickDocument)
  const [state, setState] = useState<OutgoingState>({ kind: 'working' })
  const asked = useRef<string | null>(null)
  const key = `${location.pathname}${location.search}`

  useEffect(() => {
    if (!user.isAuthenticated || asked.current === key) return
    asked.current = key
    buy({ variables: outgoingUpsellVariables(data) })
      .then(({ data: answer }) => {
        if (!answer) throw new Error('no answer')
        const step = outgoingUpsellStep(answer.outgoingUpsellOneclick, confirmationLinkFor(location.pathname, location.search))
        if (step.kind === 'confirm') {
          setState({ kind: 'confirming' })
          open('ConfirmOutgoingUpsell', step.modalProps)
        } else if (step.kind === 'leave') {
          setState({ kind: 'leaving', url: step.url, success: step.success })
          leavePage(step.url)
        } else {
          setState({ kind: 'denied' })
        }
      })
      .catch(() => setState({ kind: 'denied' }))
  }, [user.isAuthenticated, key, data, buy, open, location.pathname, location.search])

  return (
    <Page title={t('deals.upsell.title')}>
      {!user.isAuthenticated ? (
        <SignInFirst what={t('deals.upsell.what')} />
      ) : state.kind === 'working' ? (
        <p role="status" aria-busy="true">
          {t('deals.upsell.preparing')}
        </p>
      ) : state.kind === 'confirming' ? (
        <p role="status">{t('deals.upsell.confirm')}</p>
      ) : state.kind === 'leaving' ? (
        <p role="status">
          {state.success ? t('deals.upsell.complete_leaving') : t('deals.upsell.leaving')}{' '}
          <a href={state.url}>{t('common.continue')}</a>
        </p>
      ) : (
        <p role="alert">{t('deals.upsell.denied')}</p>
      )}
    </Page>
  )
}
