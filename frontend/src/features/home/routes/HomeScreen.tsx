// The home page: the query effects of product.md, "Screens and routes", then the recommendation shelves, the latest videos and the top rated.
import { useEffect, useEffectEvent } from 'react'
import { useLoaderData } from 'react-router'
import type { PageOutcome, TenantConfig, ViewportType } from '../../../app/routing'
import type { HomeData } from './rules'
import { isTranslationKey, t } from '../../../app/i18n'
import { withScreenQuery } from '../../../app/screenQuery'
import { useFlash } from '../../../app/shell/Flash'
import { useModals } from '../../../app/shell/ModalManager'
import { isMobileViewport, useViewportType } from '../../../app/theme/useViewport'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { Deferred } from '../../../components/Deferred'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { Shelf } from '../../../components/Shelf/Shelf'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { RecommendationGrid } from '../../recommendations'
import { FREE_TRIAL_VIDEOS_PATH } from '../../upgrade'
import { getFragmentData } from '../../../gql/fragment-masking'
import { HomePageDocument, Picture_ImageFragmentDoc, VideoCard_VideoFragmentDoc, type HomePageQuery } from '../../../gql/graphql'
import { fullRows, homeShelfLimit, listShelfSize, shelfColumns, shelfSize } from '../shelfSize'

/** The home page's query effects (product.md, "Screens and routes"): its flash, the purchase modal, the subscription-status actions. */
export function useHomeQueryEffects(data: HomeData | undefined) {
  const flashes = useFlash()
  const modals = useModals()
  // The loader's data is new on each navigation to the page: its effects run once per answer, with the shell's
  // current flash and modal functions (a modal opening changes those, and must not run them again).
  const apply = useEffectEvent((answer: HomeData) => {
    const { flash, openModal, subscriptionStatusAction } = answer
    if (flash && isTranslationKey(flash.message)) flashes.add({ type: flash.type, translation: flash.message })
    if (openModal) modals.open(openModal)
    if (subscriptionStatusAction) modals.open('SubscriptionStatus', { action: subscriptionStatusAction })
  })
  useEffect(() => {
    if (data) apply(data)
  }, [data])
}

/** Who is shown the "Free for your trial" shelf: whoever may see the free trial's videos (the server's rules). */
const FREE_TRIAL_VIDEOS: readonly [string, string] = ['see', 'FreeLimitedTrialVideos']

/** The shelves ask for what the viewport the page loaded for shows (a phone 3 a shelf, a wide screen 9). */
const homeQuery = (
  data: HomeData,
  session: { tenant: TenantConfig; user: { isAuthenticated: boolean; can(action: string, subject: string): boolean } },
) => ({
  query: HomePageDocument,
  variables: {
    shelfSize: homeShelfLimit(data.viewportType, session.tenant),
    latestSize: listShelfSize(data.viewportType, session.tenant),
    freeTrial: session.user.isAuthenticated && session.user.can(...FREE_TRIAL_VIDEOS),
  },
})

function HomeScreenView() {
  const outcome = useLoaderData() as PageOutcome<HomeData> | undefined
  useHomeQueryEffects(outcome?.data)
  const { result } = useScreenQuery(homeQuery)
  const { tenant } = useSession()
  const viewport = useViewportType()
  // Each shelf shows the spec's size for this viewport, in whole rows of its grid.
  const videoColumns = shelfColumns(viewport, 'videos')
  const latest = fullRows(result.latest.videos, listShelfSize(viewport, tenant), videoColumns)
  const freeTrial = result.freeTrial?.videos ?? []
  const recommended = fullRows(result.recommended.videos, shelfSize(viewport), videoColumns)
  const topRated = fullRows(result.topRated.videos, shelfSize(viewport), videoColumns)
  const models = fullRows(result.models.performers, listShelfSize(viewport, tenant), shelfColumns(viewport, 'performers'))
  return (
    <Page title={tenant.site}>
      <VisitorJoin elm="home-banner" campaign="homeBanner" className="home-join">
        {t('join.site', { site: tenant.site })}
      </VisitorJoin>
      {freeTrial.length > 0 ? (
        <Shelf title={t('home.free_trial')} moreHref={FREE_TRIAL_VIDEOS_PATH}>
          <VideoGrid videos={freeTrial} />
        </Shelf>
      ) : null}
      <Shelf title={t('home.latest')} moreHref="/videos">
        <VideoGrid videos={latest} priorityCount={priorityCards(viewport)} />
        <VisitorJoin elm="shelf1" campaign="shelf1" lead={t('join.lead_new_every_day')}>
          {t('join.site', { site: tenant.site })}
        </VisitorJoin>
      </Shelf>
      {/* The shelves after the first come a frame later: the first paint is the heading and the latest videos. */}
      <Deferred>
        {recommended.length > 0 ? (
          <Shelf title={t('home.recommended')} moreHref="/recommended-videos">
            <RecommendationGrid recommId={result.recommended.recommId} videos={recommended} />
            <VisitorJoin elm="shelf2" campaign="shelf2" lead={t('join.lead_watch_in_full')}>
              {t('join.site', { site: tenant.site })}
            </VisitorJoin>
          </Shelf>
        ) : null}
        {topRated.length > 0 ? (
          <Shelf title={t('navigation.top_rated')} moreHref="/toprated">
            <VideoGrid videos={topRated} />
            {/* The second shelf's link: here when there is no recommended shelf before it. */}
            {recommended.length === 0 ? (
              <VisitorJoin elm="shelf2" campaign="shelf2" lead={t('join.lead_watch_in_full')}>
                {t('join.site', { site: tenant.site })}
              </VisitorJoin>
            ) : null}
          </Shelf>
        ) : null}
        {models.length > 0 ? (
          <Shelf title={t('home.popular_models')} moreHref="/performers">
            <PerformerGrid performers={models} />
          </Shelf>
        ) : null}
      </Deferred>
    </Page>
  )
}

/** The first cards of "Latest videos" load eagerly with high priority: 1 on a phone, the first row wider. */
const priorityCards = (viewport: ViewportType) => (isMobileViewport(viewport) ? 1 : (shelfColumns(viewport, 'videos') ?? 1))

/** Their posters are fetched as soon as the query answers, while the page renders. */
const leadingImages = (result: HomePageQuery, data: HomeData) =>
  result.latest.videos
    .slice(0, priorityCards(data.viewportType))
    .map((video) => getFragmentData(Picture_ImageFragmentDoc, getFragmentData(VideoCard_VideoFragmentDoc, video).images.listing))

export const HomeScreen = withScreenQuery(HomeScreenView, homeQuery, { leadingImages })
