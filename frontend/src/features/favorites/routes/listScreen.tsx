// A page of one kind of favourites (videos, performers or channels): the screen of each kind's route.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { FavoriteListDocument, type FavoriteKind } from '../../../gql/graphql'
import { t, type TranslationKey } from '../../../app/i18n'
import '../copy'
import { ChannelGrid } from './ChannelGrid'

const listQuery = (kind: FavoriteKind) => (data: { page: number }) => ({
  query: FavoriteListDocument,
  variables: { kind, page: data.page, size: PAGE_SIZE },
})

export function listScreen(kind: FavoriteKind, titleKey: TranslationKey, nounKey: TranslationKey) {
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
