// The outgoing upsell's result pages (/_upsell_signupsuccess, /_upsell_signupdenial: UpsellSuccessScreen.tsx,
// UpsellFailureScreen.tsx) record the outcome with outgoingUpsellOneclickTracking and, when it answers a
// redirectUrl, set outgoing_upsell_oneclick_success / _fallback to it and go there.
import { useMutation } from '@apollo/client/react'
import { useEffect, useRef, useState } from 'react'
import type { UpsellResultData } from './rules'
import { usePageData } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { OutgoingUpsellOneclickTrackingDocument } from '../../../gql/graphql'
import { documentCookies } from '../../signup'
import { leavePage } from '../leavePage'
import { upsellResultStep } from '../outgoingUpsell'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'

export function UpsellResult({ title, outcome }: { title: string; outcome: string }) {
  const data = usePageData<UpsellResultData>()
  const { user } = useSession()
  const [track] = useMutation(OutgoingUpsellOneclickTrackingDocument)
  const [next, setNext] = useState<string | null>(null)
  const tracked = useRef(false)

  useEffect(() => {
    if (!user.isAuthenticated || tracked.current) return
    tracked.current = true
    track({ variables: { status: data.status } })
      .then(({ data: answer }) => {
        const step = upsellResultStep(data.cookieName, answer?.outgoingUpsellOneclickTracking ?? null)
        if (!step) return
        documentCookies().set(step.cookie.name, step.cookie.value, step.cookie.maxAgeSeconds)
        setNext(step.url)
        leavePage(step.url)
      })
      .catch(() => undefined)
  }, [user.isAuthenticated, data.status, data.cookieName, track])

  return (
    <Page title={title}>
      <p role={data.status ? 'status' : 'alert'}>{outcome}</p>
      {next ? (
        <p>
          <a className="button button--accent" href={next}>
            {t('common.continue')}
          </a>
        </p>
      ) : null}
    </Page>
  )
}
