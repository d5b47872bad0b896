// The videos list with its filters.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import type { VideosData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { useSession } from '../../../app/session/SessionContext'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { VideoListingDocument } from '../../../gql/graphql'
import { VideoFilters } from '../components/VideoFilters'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { GridJoin } from './GridJoin'

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

export const VideosScreen = withScreenQuery(VideosView, listingQuery)
