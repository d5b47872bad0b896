// Quickies (reels; tenant feature reels): short clips, one in the player when the address names it.
import { Link, useLocation } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery, type AnyVariables, type ScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { formatDuration } from '../../../components/VideoCard/format'
import { getFragmentData } from '../../../gql/fragment-masking'
import '../quickies.css'
import { ReelActions } from './ReelActions'
import {
  QuickieListDocument,
  QuickiePageDocument,
  Quickie_ReelFragmentDoc,
  type QuickieListQuery,
  type QuickiePageQuery,
  type Quickie_ReelFragment,
} from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

function currentPage(search: string): number {
  const page = Number(new URLSearchParams(search).get('page') ?? 1)
  return Number.isSafeInteger(page) && page >= 1 ? page : 1
}

const quickiesQuery = (
  data: { uuid: string | null },
  _session: unknown,
  location: { search: string },
): ScreenQuery<QuickieListQuery | QuickiePageQuery, AnyVariables> => {
  const page = currentPage(location.search)
  return data.uuid
    ? { query: QuickiePageDocument, variables: { uuid: data.uuid, page, size: PAGE_SIZE } }
    : { query: QuickieListDocument, variables: { page, size: PAGE_SIZE } }
}

function QuickiePlayer({ reel }: { reel: Quickie_ReelFragment }) {
  return (
    <figure className="quickie-player">
      <img src={reel.clip.src} alt={t('quickies.alt', { title: reel.title })} width={1280} height={720} fetchPriority="high" />
      <figcaption>
        {reel.title} · {formatDuration(reel.duration)} · {t('quickies.views', { count: reel.views })}
        {reel.videoSlug ? (
          <>
            {' · '}
            <Link to={`/videos/${reel.videoSlug}`}>{t('quickies.watch_full')}</Link>
          </>
        ) : null}
      </figcaption>
      <ReelActions reel={reel} />
    </figure>
  )
}

function QuickiesView() {
  const { page, result } = useScreenQuery(quickiesQuery)
  const current = 'reel' in result ? getFragmentData(Quickie_ReelFragmentDoc, result.reel) : null
  const list = result.reels
  return (
    <Page title={current ? current.title : t('navigation.quickies')}>
      {current ? <QuickiePlayer reel={current} /> : null}
      <Listing page={currentPage(useLocation().search)} totalCount={list.totalCount} noun={t('listing.quickies')}>
        <ul className="video-grid" aria-label={t('navigation.quickies')}>
          {list.reels.map((masked) => {
            const reel = getFragmentData(Quickie_ReelFragmentDoc, masked)
            return (
              <li key={reel.uuid}>
                <Link to={`/quickies/${reel.uuid}`} className="video-card__link" aria-current={reel.uuid === page.uuid ? 'page' : undefined}>
                  <span className="video-card__media">
                    <Picture image={reel.image} alt="" className="video-card__image" />
                    <span className="video-card__duration">{formatDuration(reel.duration)}</span>
                  </span>
                  <span className="video-card__title">{reel.title}</span>
                </Link>
              </li>
            )
          })}
        </ul>
      </Listing>
    </Page>
  )
}

export const QuickiesScreen = withScreenQuery(QuickiesView, quickiesQuery)
