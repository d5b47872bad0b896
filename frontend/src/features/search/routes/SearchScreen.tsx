// Search: videos ranked over titles, performers and categories, with the performers and categories that match.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import type { SearchData } from './rules'
import { withScreenQuery, type ScreenLocation } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { SearchPageDocument } from '../../../gql/graphql'
import { searchText } from '../searchText'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

const searchQuery = (data: SearchData, _session: unknown, location: ScreenLocation) => ({
  query: SearchPageDocument,
  variables: { q: searchText(data, location), page: data.page, size: data.size ?? PAGE_SIZE },
})

function SearchView() {
  const { page, result } = useScreenQuery(searchQuery)
  const { search } = result
  const text = search.q
  return (
    <Page title={text ? t('search.title', { text }) : t('navigation.search')}>
      {search.terms.length > 0 && search.terms.join(' ') !== text.toLowerCase() ? (
        <p className="muted">{t('search.showing', { terms: search.terms.join(' ') })}</p>
      ) : null}
      {search.performers.length > 0 ? (
        <>
          <h2>{t('navigation.models')}</h2>
          <PerformerGrid performers={search.performers} />
        </>
      ) : null}
      {search.categories.length > 0 ? (
        <ul className="tags" aria-label={t('navigation.categories')}>
          {search.categories.map((category) => (
            <li key={category.slug}>
              <Link to={`/search?q=${encodeURIComponent(category.name)}`}>{category.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      <h2>{t('navigation.videos')}</h2>
      <Listing page={page.page} totalCount={search.totalCount} pageSize={page.size ?? PAGE_SIZE} noun={t('listing.videos')}>
        <VideoGrid videos={search.videos} priorityCount={4} empty={<p>{t('search.nothing', { text })}</p>} />
      </Listing>
    </Page>
  )
}

export const SearchScreen = withScreenQuery(SearchView, searchQuery)
