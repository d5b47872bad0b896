// The favourites overview: a row of each kind (videos, performers, channels), each leading to its page.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { FavoritesOverviewDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
import { ChannelGrid } from './ChannelGrid'

/** Each kind's row on the overview. */
const OVERVIEW_SIZE = 4

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
