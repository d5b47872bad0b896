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

/** Each kind's row on the overview. */
const OVERVIEW_SIZE = 4

/** A favourite channel, as both favourites queries select it. */
type ChannelItem = FavoritesOverviewQuery['channels']['channels'][number]

function ChannelGrid({ channels }: { channels: readonly ChannelItem[] }) {
  return (
    <ul className="performer-grid" aria-label="Favorite channels">
      {channels.map((channel) => (
        <li key={channel.channelId}>
          <Link to={`/channels/${channel.slug}`} className="performer-card">
            <span className="video-card__media">
              <Picture image={channel.image} alt="" className="video-card__image" />
            </span>
            <span className="performer-card__name">{channel.name}</span>
            <span className="muted">{channel.videoCount} videos</span>
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
          {title} ({count})
        </Link>
      </h2>
      {count === 0 ? <p className="muted">Nothing here yet.</p> : children}
    </section>
  )
}

function FavoritesView() {
  const { result } = useScreenQuery(overviewQuery)
  return (
    <Page title="Favorites">
      <Section title="Videos" to="/favorites/videos" count={result.videos.totalCount}>
        <VideoGrid videos={result.videos.videos} />
      </Section>
      <Section title="Performers" to="/favorites/performers" count={result.performers.totalCount}>
        <PerformerGrid performers={result.performers.performers} />
      </Section>
      <Section title="Channels" to="/favorites/channels" count={result.channels.totalCount}>
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

function listScreen(kind: FavoriteKind, title: string, noun: string) {
  const query = listQuery(kind)
  function FavoriteListView() {
    const { page, result } = useScreenQuery(query)
    const list = result.favorites
    const empty = <p className="muted">You have no favorite {noun} yet.</p>
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

export const FavoriteVideosScreen = listScreen('video', 'Favorite Videos', 'videos')
export const FavoritePerformersScreen = listScreen('performer', 'Favorite Performers', 'performers')
export const FavoriteChannelsScreen = listScreen('channel', 'Favorite Channel Videos', 'channels')
