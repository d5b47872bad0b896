// Award-winning videos.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { AwardedVideosDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
import { GridJoin } from './GridJoin'

const awardsQuery = (data: { page: number }) => ({
  query: AwardedVideosDocument,
  variables: { page: data.page, first: PAGE_SIZE },
})

function AwardsView() {
  const { page, result } = useScreenQuery(awardsQuery)
  return (
    <Page title={t('navigation.awards')}>
      <Listing page={page.page} totalCount={result.getAwardedVideos.totalCount} noun={t('listing.award_winning_videos')}>
        <VideoGrid videos={result.getAwardedVideos.videos} priorityCount={4} empty={<p>{t('videos.no_awards')}</p>} />
      </Listing>
      <GridJoin />
    </Page>
  )
}

export const AwardsScreen = withScreenQuery(AwardsView, awardsQuery)
