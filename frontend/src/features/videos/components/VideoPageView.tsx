// The video page (and, under a channel, the channel video page): the player, what the video is, rating,
// favourite, comments and related videos.
import { lazy } from 'react'
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { Deferred } from '../../../components/Deferred'
import { Page } from '../../../components/Page'
import { Shelf } from '../../../components/Shelf/Shelf'
import { formatDuration, formatReleaseDate } from '../../../components/VideoCard/format'
import { FREE_TRIAL_MARK } from '../../../components/VideoCard/VideoCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { VideoFavoriteDocument, VideoPageDocument, VideoTokensDocument } from '../../../gql/graphql'
import { CrossNavigationShelf } from '../../recommendations'
import { DownloadPanel } from '../../unlocks'
import { FavoriteButton } from './FavoriteButton'
import { Rating } from './Rating'
import { VideoPlayer } from './VideoPlayer'
import './VideoPage.css'
import { t } from '../../../app/i18n'
import '../copy'

// The comments come after the first screen (Deferred), and so does their code: threads, votes, moderation and the
// full CASL ability that decides who may write (≈ 9 kB gzip, with its GraphQL documents) were evaluated with the
// page before its first paint (docs/benchmarks.md, 2026-11-28). Deferred fetches it after the first screen and
// renders the comments and the shelves once it is in.
const commentsCode = () => import('./Comments')
const Comments = lazy(() => commentsCode().then((module) => ({ default: module.Comments })))

/** Related videos on the video page: whole shelf rows (two of 3 on large screens, three of 2 on medium ones). */
export const RELATED_COUNT = 6

export interface VideoRouteData {
  slug?: string
  videoSlug?: string
  channelSlug?: string
}

export const videoSlugOf = (data: VideoRouteData) => data.videoSlug ?? data.slug ?? ''

export const videoPageQuery = (data: VideoRouteData) => ({
  query: VideoPageDocument,
  variables: { videoSlug: videoSlugOf(data), relatedCount: RELATED_COUNT },
})

/** Where a video of this page links: under the channel on channel pages. */
const hrefFor = (channelSlug: string | undefined) => (slug: string) =>
  channelSlug ? `/channels/${channelSlug}/videos/${slug}` : `/videos/${slug}`

function VideoPageView() {
  const { page, result } = useScreenQuery(videoPageQuery)
  const { user } = useSession()
  const { open } = useModals()
  const detail = result.getVideo
  const { video } = detail
  const link = hrefFor(page.channelSlug)
  const trailerHref = page.channelSlug ? `/channels/${page.channelSlug}/trailers/${video.slug}` : `/trailer/${video.slug}`
  const pictureSetHref = page.channelSlug
    ? `/channels/${page.channelSlug}/picturesets/${video.slug}`
    : `/pictureset/${video.slug}`
  return (
    <Page title={video.title} shows={{ name: video.title, description: video.description }}>
      <VideoPlayer video={video} />
      <div className="video-page__info">
        <p className="video-page__meta muted">
          <span>{formatReleaseDate(video.releaseDate)}</span>
          <span>{formatDuration(video.duration)}</span>
          {detail.channelName && page.channelSlug ? (
            <Link to={`/channels/${page.channelSlug}`}>{detail.channelName}</Link>
          ) : null}
          {video.award > 0 ? <span className="video-page__award">{t('videos.award_winner')}</span> : null}
          {video.freeForYourTrial ? <span className="video-page__free-trial">{FREE_TRIAL_MARK}</span> : null}
        </p>
        {video.performers.length > 0 ? (
          <p className="video-page__performers">
            {t('videos.with')}{' '}
            {video.performers.map((performer, index) => (
              <span key={performer.id}>
                {index > 0 ? ', ' : null}
                <Link to={`/performers/${performer.slug}`}>{performer.name}</Link>
              </span>
            ))}
          </p>
        ) : null}
        <p className="video-page__description">{video.description}</p>
        {video.categories.length > 0 ? (
          <ul className="tags" aria-label={t('navigation.categories')}>
            {video.categories.map((category) => (
              <li key={category.slug}>
                <Link to={`/search?q=${encodeURIComponent(category.name)}`}>{category.name}</Link>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="video-page__actions">
          <Rating videoId={video.uuid} rating={video.rating} ratingCount={video.ratingCount} userRating={detail.userRating} />
          {user.isAuthenticated ? <FavoriteButton videoSlug={video.slug} /> : null}
          {user.isAuthenticated && user.can('see', 'ExpertReviewModal') ? (
            <button type="button" className="button" onClick={() => open('ExpertReviewModal', { videoId: video.uuid })}>
              {t('videos.expert_review')}
            </button>
          ) : null}
          <Link className="button" to={trailerHref}>
            {t('videos.watch_trailer')}
          </Link>
          {detail.hasPictureSet ? (
            <Link className="button" to={pictureSetHref}>
              {t('videos.picture_set')}
            </Link>
          ) : null}
        </div>
      </div>
      {user.isAuthenticated && user.can('download', 'Video') ? <DownloadPanel videoId={video.uuid} /> : null}
      {/* Comments (their own query) and related videos come a frame after the player and the video's details. */}
      <Deferred code={commentsCode}>
        <Comments
          videoId={video.uuid}
          commentCount={detail.commentCount}
          video={{
            id: video.uuid,
            site: video.site,
            channelPackId: video.channel?.channelPackId ?? null,
            isThirdPartyChannel: video.isThirdPartyChannel,
            isFreeLimitedTrial: video.isFreeLimitedTrial,
          }}
        />
        {detail.related.length > 0 ? (
          <Shelf title={t('videos.related')}>
            <VideoGrid videos={detail.related} hrefFor={(related) => link(related.slug)} />
          </Shelf>
        ) : null}
        <CrossNavigationShelf videoId={video.uuid} />
      </Deferred>
    </Page>
  )
}

// A member's player asks the video's media tokens and the favourite button its state as the page renders; the page
// comes with both (gateway first_screen.rs `follow_ups`).
export const VideoPage = withScreenQuery(VideoPageView, videoPageQuery, {
  pageAnswers: [VideoTokensDocument, VideoFavoriteDocument],
})
