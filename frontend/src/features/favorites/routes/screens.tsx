// The favourites: an overview of the three kinds, and a page of each (videos, performers, channels).
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { Picture } from '../../../components/Picture/Picture'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import {
  FavoriteListDocument,
  FavoritesOverviewDocument,
  type FavoriteKind,
  type FavoritesOverviewQuery,
} from '../../../gql/graphql'
import { t, type TranslationKey } from '../../../app/i18n'
import '../../../app/i18n/copy/favorites'
import '../../../app/i18n/copy/shared'

/** Each kind's row on the overview. */
const OVERVIEW_SIZE = 4

/** A favourite channel, as both favourites queries select it. */
type ChannelItem = FavoritesOverviewQuery['channels']['channels'][number]

function ChannelGrid({ channels }: { channels: readonly ChannelItem[] }) {
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

const overviewQuery = () => ({ query: FavoritesOverviewDocument, variables: { size: OVERVIEW_SIZE } })

function Section({ title, to, count, children }: { title: string; to: string; count: number; children: React.ReactNode }) {
  return (
    <section className="shelf" aria-label={title}>
      <h2>
        <Link to={to}>
          {t('favorites.section', { title, count })}
        </Link>
      </h2>
      {count === 0 ? <p className="muted">{t('favorites.nothing_yet')}</p> : children}
    </section>
  )
}

function FavoritesView() {
  const { result } = useScreenQuery(overviewQuery)
  return (
    <Page title={t('navigation.favorites')}>
      <Section title={t('navigation.videos')} to="/favorites/videos" count={result.videos.totalCount}>
        <VideoGrid videos={result.videos.videos} />
      </Section>
      <Section title={t('favorites.performers')} to="/favorites/performers" count={result.performers.totalCount}>
        <PerformerGrid performers={result.performers.performers} />
      </Section>
      <Section title={t('navigation.channels')} to="/favorites/channels" count={result.channels.totalCount}>
        <ChannelGrid channels={result.channels.channels} />
      </Section>
    </Page>
  )
}

export const FavoritesScreen = withScreenQuery(FavoritesView, overviewQuery)

const listQuery = (kind: FavoriteKind) => (data: { page: number }) => ({
  query: FavoriteListDocument,
  variables: { kind, page: data.page, size: PAGE_SIZE },
})

function listScreen(kind: FavoriteKind, titleKey: TranslationKey, nounKey: TranslationKey) {
  const query = listQuery(kind)
  function FavoriteListView() {
    const { page, result } = useScreenQuery(query)
    const list = result.favorites
    const title = t(titleKey)
    const noun = t(nounKey)
    const empty = <p className="muted">{t('favorites.none', { noun })}</p>
    return (
      <Page title={title}>
        <Listing page={page.page} totalCount={list.totalCount} noun={noun}>
          {kind === 'video' ? (
            <VideoGrid videos={list.videos} empty={empty} priorityCount={4} />
          ) : kind === 'performer' ? (
            list.performers.length > 0 ? <PerformerGrid performers={list.performers} /> : empty
          ) : list.channels.length > 0 ? (
            <ChannelGrid channels={list.channels} />
          ) : (
            empty
          )}
        </Listing>
      </Page>
    )
  }
  return withScreenQuery(FavoriteListView, query)
}

export const FavoriteVideosScreen = listScreen('video', 'favorites.videos_title', 'listing.videos')
export const FavoritePerformersScreen = listScreen('performer', 'favorites.performers_title', 'favorites.performers_noun')
export const FavoriteChannelsScreen = listScreen('channel', 'favorites.channels_title', 'listing.channels')
