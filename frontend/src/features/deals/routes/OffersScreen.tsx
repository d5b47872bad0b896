// /offers: the offers grid (15) under the interstitial, which the user continues past (interstitial_continue) or,
// with HideMonthInterstitialButton, hides for one month (interstitial_snooze). The loader's offersRule has already
// sent a user with a pending promotional teaser on to `next`.
import { useMutation } from '@apollo/client/react'
import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useFlash } from '../../../app/shell/Flash'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import {
  ContinueInterstitialDocument,
  OffersInterstitial_InterstitialFragmentDoc,
  OffersPageDocument,
  SnoozeInterstitialDocument,
  type OffersPageQuery,
} from '../../../gql/graphql'
import { getFragmentData } from '../../../gql/fragment-masking'
import { DealCard } from '../components/DealCard'
import { HIDE_MONTH_INTERSTITIAL_BUTTON, interstitialView, offersGrid, snoozedUntilText } from '../offers'
import './deals.css'
import { t } from '../../../app/i18n'
import '../copy'

const offersQuery = () => ({ query: OffersPageDocument, variables: {} })

function OffersView() {
  const { result } = useScreenQuery<OffersPageQuery, unknown>(offersQuery)
  const { user, tenant } = useSession()
  const location = useLocation()
  const navigate = useNavigate()
  const flashes = useFlash()
  const { offers } = result
  const deals = offersGrid(offers.deals)
  const interstitial = getFragmentData(OffersInterstitial_InterstitialFragmentDoc, offers.interstitial)
  const view = interstitialView({
    interstitial,
    mayHide: user.can(...HIDE_MONTH_INTERSTITIAL_BUTTON),
    next: new URLSearchParams(location.search).get('next'),
  })
  const [busy, setBusy] = useState(false)
  const input = { site: offers.site, dealId: deals[0]?.id ?? null }
  const [continueInterstitial] = useMutation(ContinueInterstitialDocument)
  const [snoozeInterstitial] = useMutation(SnoozeInterstitialDocument, {
    // The page's answer holds the interstitial: keep it hidden when the user comes back within the month.
    update(cache, { data }) {
      const interstitial = data?.snoozeInterstitial
      if (!interstitial) return
      cache.updateQuery({ query: OffersPageDocument }, (page) => (page ? { offers: { ...page.offers, interstitial } } : page))
    },
  })

  const skipTo = view.kind === 'skip' ? view.to : null
  useEffect(() => {
    if (skipTo) void navigate(skipTo, { replace: true })
  }, [skipTo, navigate])

  async function onContinue(to: string) {
    setBusy(true)
    // Continuing is tracking only: a failed record must not keep the user here.
    await continueInterstitial({ variables: { input } }).catch(() => undefined)
    void navigate(to)
  }

  async function onSnooze(to: string) {
    setBusy(true)
    try {
      const { data } = await snoozeInterstitial({ variables: { input } })
      const until = snoozedUntilText(getFragmentData(OffersInterstitial_InterstitialFragmentDoc, data?.snoozeInterstitial)?.snoozedUntil)
      flashes.add({ type: 'success', message: until ? t('deals.offers.hidden_until', { until }) : t('deals.offers.hidden') })
      void navigate(to)
    } catch {
      setBusy(false)
      flashes.add({ type: 'error', message: t('deals.offers.hide_failed') })
    }
  }

  return (
    <Page title={t('navigation.offers')}>
      {view.kind === 'shown' ? (
        <section className="offers-interstitial" aria-labelledby="offers-interstitial-heading" data-testid="offers-interstitial">
          <h2 id="offers-interstitial-heading">{t('deals.offers.heading', { site: tenant.site })}</h2>
          <p>{t('deals.offers.intro', { site: tenant.site })}</p>
          <div className="offers-interstitial__actions">
            <button type="button" className="button button--accent" disabled={busy} onClick={() => void onContinue(view.continueTo)}>
              {t('deals.offers.continue', { site: tenant.site })}
            </button>
            {view.mayHide ? (
              <button type="button" className="button" disabled={busy} onClick={() => void onSnooze(view.continueTo)}>
                {t('deals.offers.hide')}
              </button>
            ) : null}
          </div>
        </section>
      ) : null}
      <section aria-labelledby="offers-grid-heading">
        <h2 id="offers-grid-heading">{t('deals.offers.for_you')}</h2>
        {deals.length > 0 ? (
          <ul className="deals-grid" data-testid="offers-grid">
            {deals.map((deal) => (
              <li key={deal.id}>
                <DealCard deal={deal} listing />
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('deals.offers.none')}</p>
        )}
      </section>
    </Page>
  )
}

export const OffersScreen = withScreenQuery(OffersView, offersQuery)
