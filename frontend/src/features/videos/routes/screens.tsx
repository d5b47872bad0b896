// The video screens: the listing with its filters, the video, trailer and picture set pages, top rated, awards.
import { Link, useLoaderData } from 'react-router'
import { PAGE_SIZE, type PageOutcome } from '../../../app/routing'
import type { TopRatedResult, VideosData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { useSession } from '../../../app/session/SessionContext'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import type { VideoCardVideo } from '../../../components/VideoCard/VideoCard'
import { AwardedVideosDocument, FreeTrialVideosDocument, VideoListingDocument } from '../../../gql/graphql'
import { VideoFilters } from '../components/VideoFilters'
import { PictureSetPage, TrailerPage, VideoPage } from '../index'
import '../components/VideoPage.css'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../../../app/i18n/copy/videos'

const listingQuery = (data: VideosData) => ({
  query: VideoListingDocument,
  variables: {
    page: data.page,
    size: PAGE_SIZE,
    filter: data.filter,
    categories: data.categories,
    search: data.search,
  },
})

function VideosView() {
  const { page, result } = useScreenQuery(listingQuery)
  const { videos, getAllFilters } = result
  const title = page.search ? t('videos.search_title', { search: page.search }) : t('navigation.videos')
  const { tenant } = useSession()
  return (
    <Page title={title}>
      <VisitorJoin elm="top-banner" campaign="topBanner" className="join-cta join-cta--banner" lead={t('join.lead_every_video')}>
        {t('join.site', { site: tenant.site })}
      </VisitorJoin>
      <VideoFilters filter={page.filter} categories={page.categories} options={getAllFilters.categories} />
      {page.search ? (
        <p>
          <Link to="/videos">{t('videos.clear_search')}</Link>
        </p>
      ) : null}
      <Listing page={page.page} totalCount={videos.totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={videos.videos} priorityCount={4} empty={<p>{t('videos.none_match')}</p>} />
      </Listing>
      <GridJoin />
    </Page>
  )
}

/** Under a grid of videos. */
function GridJoin() {
  const { tenant } = useSession()
  return (
    <VisitorJoin elm="grid" campaign="grid" lead={t('join.lead_watch_every_video')}>
      {t('join.site', { site: tenant.site })}
    </VisitorJoin>
  )
}

export const VideosScreen = withScreenQuery(VideosView, listingQuery)
export const VideoScreen = VideoPage
export const TrailerScreen = TrailerPage
export const PictureSetScreen = PictureSetPage

/** /toprated: its loader fetched GET /toprated with the page's query; the videos come in the loader's data. */
export function TopRatedScreen() {
  const outcome = useLoaderData() as PageOutcome<TopRatedResult<VideoCardVideo & { newId?: string }> & { query: string }>
  const videos = outcome.data.videos
  const totalCount = Number(outcome.data.rest.totalCount ?? videos.length)
  const page = Number(new URLSearchParams(outcome.data.query).get('page') ?? 1) || 1
  return (
    <Page title={t('navigation.top_rated')}>
      <Listing page={page} totalCount={totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={videos} priorityCount={4} empty={<p>{t('videos.no_rated')}</p>} />
      </Listing>
      <GridJoin />
    </Page>
  )
}

const awardsQuery = (data: { page: number }) => ({
  query: AwardedVideosDocument,
  variables: { page: data.page, first: PAGE_SIZE },
})

function AwardsView() {
  const { page, result } = useScreenQuery(awardsQuery)
  return (
    <Page title={t('navigation.awards')}>
      <Listing page={page.page} totalCount={result.getAwardedVideos.totalCount} noun={t('listing.award_winning_videos')}>
        <VideoGrid videos={result.getAwardedVideos.videos} priorityCount={4} empty={<p>{t('videos.no_awards')}</p>} />
      </Listing>
      <GridJoin />
    </Page>
  )
}

export const AwardsScreen = withScreenQuery(AwardsView, awardsQuery)

const freeTrialQuery = (data: { page: number }) => ({
  query: FreeTrialVideosDocument,
  variables: { page: data.page, size: PAGE_SIZE },
})

/** /free-trial-videos: the videos the user's free trial includes, those it may still take marked. */
function FreeTrialVideosView() {
  const { page, result } = useScreenQuery(freeTrialQuery)
  const { freeLimitedTrialVideosLeft: left, freeLimitedTrialVideos: count } = result.unlockState
  return (
    <Page title={t('videos.free_trial_title')}>
      <p className="free-trial-videos__lead" data-testid="free-trial-lead">
        {left > 0 ? t('videos.free_trial_lead', { count, left }) : t('videos.free_trial_lead_none', { count })}
      </p>
      <Listing page={page.page} totalCount={result.freeTrialVideos.totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={result.freeTrialVideos.videos} priorityCount={4} empty={<p>{t('videos.free_trial_none')}</p>} />
      </Listing>
    </Page>
  )
}

export const FreeTrialVideosScreen = withScreenQuery(FreeTrialVideosView, freeTrialQuery)
