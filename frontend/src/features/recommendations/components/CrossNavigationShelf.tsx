// The video page's cross-navigation shelf, where the tenant has sister sites (its standaloneSites other than itself):
// videos like this one from this brand and its sisters. A click is tracked with the shelf's recommId.
import { useQuery } from '@apollo/client/react'
import { useSession } from '../../../app/session/SessionContext'
import { Shelf } from '../../../components/Shelf/Shelf'
import { CrossNavigationShelfDocument } from '../../../gql/graphql'
import { crossNavigationHref, hasSisterSites } from '../crossNavigation'
import { RecommendationGrid } from './RecommendationGrid'
import { t } from '../../../app/i18n'
import '../copy'

/** Whole rows of the related shelf's width. */
export const CROSS_NAVIGATION_LIMIT = 6

export function CrossNavigationShelf({ videoId }: { videoId: string }) {
  const { tenant } = useSession()
  const sisters = hasSisterSites(tenant)
  const { data } = useQuery(CrossNavigationShelfDocument, {
    variables: { videoId, limit: CROSS_NAVIGATION_LIMIT },
    skip: !sisters,
  })
  const shelf = data?.recommendations
  if (!sisters || !shelf || shelf.videos.length === 0) return null
  return (
    <Shelf title={t('recommendations.more_from_our_sites')}>
      <RecommendationGrid
        recommId={shelf.recommId}
        videos={shelf.videos}
        hrefFor={(video, item) => crossNavigationHref({ slug: video.slug, site: item.site }, tenant.tenant)}
        label={t('recommendations.more_from_our_sites')}
      />
    </Shelf>
  )
}
