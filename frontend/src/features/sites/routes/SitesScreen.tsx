// /sites/{brand}/{type}: a sister brand's videos or performers, listed on this brand.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import type { SitesRouteType } from './rules'
import { withScreenQuery, type AnyVariables, type ScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import {
  SisterSitePerformersDocument,
  SisterSiteVideosDocument,
  type SisterSitePerformersQuery,
  type SisterSiteVideosQuery,
} from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

interface SitesData {
  brand: string
  type: SitesRouteType
  page: number
}

const sitesQuery = (data: SitesData): ScreenQuery<SisterSiteVideosQuery | SisterSitePerformersQuery, AnyVariables> =>
  data.type === 'videos'
    ? { query: SisterSiteVideosDocument, variables: { brand: data.brand, page: data.page, size: PAGE_SIZE } }
    : { query: SisterSitePerformersDocument, variables: { brand: data.brand, page: data.page, size: PAGE_SIZE } }

function SitesView() {
  const { page, result } = useScreenQuery(sitesQuery)
  const brand = page.brand.toUpperCase()
  const other = page.type === 'videos' ? 'performers' : 'videos'
  return (
    <Page title={t(page.type === 'videos' ? 'sites.videos' : 'sites.models', { brand })}>
      <p>
        <Link to={`/sites/${page.brand}/${other}`}>
          {t(other === 'videos' ? 'sites.videos' : 'sites.models', { brand })}
        </Link>
      </p>
      {'sisterSiteVideos' in result ? (
        <Listing page={page.page} totalCount={result.sisterSiteVideos.totalCount} noun={t('listing.videos')}>
          <VideoGrid videos={result.sisterSiteVideos.videos} priorityCount={4} />
        </Listing>
      ) : (
        <Listing page={page.page} totalCount={result.sisterSitePerformers.totalCount} noun={t('listing.models')}>
          <PerformerGrid performers={result.sisterSitePerformers.performers} />
        </Listing>
      )}
    </Page>
  )
}

export const SitesScreen = withScreenQuery(SitesView, sitesQuery)
