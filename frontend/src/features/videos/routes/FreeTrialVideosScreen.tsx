// The free trial's videos.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { FreeTrialVideosDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

const freeTrialQuery = (data: { page: number }) => ({
  query: FreeTrialVideosDocument,
  variables: { page: data.page, size: PAGE_SIZE },
})

/** /free-trial-videos: the videos the user's free trial includes, those it may still take marked. */
function FreeTrialVideosView() {
  const { page, result } = useScreenQuery(freeTrialQuery)
  const { freeLimitedTrialVideosLeft: left, freeLimitedTrialVideos: count } = result.unlockState
  return (
    <Page title={t('videos.free_trial_title')}>
      <p className="free-trial-videos__lead" data-testid="free-trial-lead">
        {left > 0 ? t('videos.free_trial_lead', { count, left }) : t('videos.free_trial_lead_none', { count })}
      </p>
      <Listing page={page.page} totalCount={result.freeTrialVideos.totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={result.freeTrialVideos.videos} priorityCount={4} empty={<p>{t('videos.free_trial_none')}</p>} />
      </Listing>
    </Page>
  )
}

export const FreeTrialVideosScreen = withScreenQuery(FreeTrialVideosView, freeTrialQuery)
