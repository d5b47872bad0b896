// A video in a list: poster, title, performers, release date, duration and rating. The whole card is one link, so
// keyboard users meet one tab stop per video; the performers are named in the text, not linked.
import { Link } from 'react-router'
import { getFragmentData, type FragmentType } from '../../gql/fragment-masking'
import { VideoCard_VideoFragmentDoc } from '../../gql/graphql'
import { Picture } from '../Picture/Picture'
import { formatDuration, formatRating, formatReleaseDate, joinNames } from './format'
import './VideoCard.css'
import { t } from '../../app/i18n'
import { useCardHeading } from '../cardHeading'

/** What a card shows: the VideoCard_video fragment (VideoCard.graphql). */
export type VideoCardVideo = FragmentType<typeof VideoCard_VideoFragmentDoc>

export interface VideoCardProps {
  video: VideoCardVideo
  /** Where the card leads; the video page by default. */
  href?: string
  /** The first cards of a page are its largest paint: load them at once. */
  priority?: boolean
  titleAs?: 'h2' | 'h3'
}

/**
 * The mark of one of the user's free trial's videos, on its card and its page: where the server says this user's
 * trial may take it (freeForYourTrial), not wherever a video is flagged.
 */
export const FREE_TRIAL_MARK = t('video_card.free_trial')

export function videoHref(slug: string): string {
  return `/videos/${slug}`
}

export function VideoCard({ video: masked, href, priority = false, titleAs }: VideoCardProps) {
  const inherited = useCardHeading()
  const title = titleAs ?? inherited
  const video = getFragmentData(VideoCard_VideoFragmentDoc, masked)
  const rating = formatRating(video.rating)
  const performers = joinNames(video.performers.map((performer) => performer.name))
  return (
    <article className="video-card">
      <Link to={href ?? videoHref(video.slug)} className="video-card__link">
        <div className="video-card__media">
          <Picture
            image={video.images.listing}
            alt=""
            priority={priority}
            className="video-card__image"
            sizes="(min-width: 1286px) 25vw, (min-width: 769px) 33vw, (min-width: 481px) 50vw, 100vw"
          />
          {video.freeForYourTrial ? <span className="video-card__badge">{FREE_TRIAL_MARK}</span> : null}
          <span className="video-card__duration">
            <span className="visually-hidden">{t('video_card.duration')} </span>
            {formatDuration(video.duration)}
          </span>
        </div>
        {title === 'h2' ? (
          <h2 className="video-card__title">{video.title}</h2>
        ) : (
          <h3 className="video-card__title">{video.title}</h3>
        )}
      </Link>
      <p className="video-card__meta">
        {performers ? <span className="video-card__performers">{performers}</span> : null}
        <span className="video-card__date">{formatReleaseDate(video.releaseDate)}</span>
        {rating ? (
          <span className="video-card__rating" aria-label={t('video_card.rating', { rating })}>
            ★ {rating}
          </span>
        ) : null}
      </p>
    </article>
  )
}
