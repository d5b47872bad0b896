// Recommended videos: the RECOMMENDED_VIDEOS shelf as a page.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { RecommendationGrid } from '../components/RecommendationGrid'
import { RecommendedVideosDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

/** Two pages' worth: the shelf has no pages of its own. */
const recommendedQuery = () => ({ query: RecommendedVideosDocument, variables: { limit: 2 * PAGE_SIZE } })

function RecommendedVideosView() {
  const { result } = useScreenQuery(recommendedQuery)
  return (
    <Page title={t('recommendations.title')}>
      <RecommendationGrid
        recommId={result.recommendations.recommId}
        videos={result.recommendations.videos}
        priorityCount={4}
        empty={<p>{t('recommendations.none')}</p>}
      />
    </Page>
  )
}

export const RecommendedVideosScreen = withScreenQuery(RecommendedVideosView, recommendedQuery)
