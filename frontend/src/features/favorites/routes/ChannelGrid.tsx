// Favourite channels as a grid (the overview's row and the channels page).
import { Link } from 'react-router'
import { Picture } from '../../../components/Picture/Picture'
import type { FavoritesOverviewQuery } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

/** A favourite channel, as both favourites queries select it. */
type ChannelItem = FavoritesOverviewQuery['channels']['channels'][number]

export function ChannelGrid({ channels }: { channels: readonly ChannelItem[] }) {
  return (
    <ul className="performer-grid" aria-label={t('favorites.channels_label')}>
      {channels.map((channel) => (
        <li key={channel.channelId}>
          <Link to={`/channels/${channel.slug}`} className="performer-card">
            <span className="video-card__media">
              <Picture image={channel.image} alt="" className="video-card__image" />
            </span>
            <span className="performer-card__name">{channel.name}</span>
            <span className="muted">{t('performers.video_count', { count: channel.videoCount })}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
