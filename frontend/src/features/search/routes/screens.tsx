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

const searchQuery = (data: SearchData, _session: unknown, location: ScreenLocation) => ({
  query: SearchPageDocument,
  variables: { q: searchText(data, location), page: data.page, size: data.size ?? PAGE_SIZE },
})

function SearchView() {
  const { page, result } = useScreenQuery(searchQuery)
  const { search } = result
  const text = search.q
  return (
    <Page title={text ? `Search: ${text}` : 'Search'}>
      {search.terms.length > 0 && search.terms.join(' ') !== text.toLowerCase() ? (
        <p className="muted">Showing results for “{search.terms.join(' ')}”.</p>
      ) : null}
      {search.performers.length > 0 ? (
        <>
          <h2>Models</h2>
          <PerformerGrid performers={search.performers} />
        </>
      ) : null}
      {search.categories.length > 0 ? (
        <ul className="tags" aria-label="Categories">
          {search.categories.map((category) => (
            <li key={category.slug}>
              <Link to={`/search?q=${encodeURIComponent(category.name)}`}>{category.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      <h2>Videos</h2>
      <Listing page={page.page} totalCount={search.totalCount} pageSize={page.size ?? PAGE_SIZE} noun="videos">
        <VideoGrid videos={search.videos} priorityCount={4} empty={<p>Nothing matches “{text}”.</p>} />
      </Listing>
    </Page>
  )
}

export const SearchScreen = withScreenQuery(SearchView, searchQuery)
