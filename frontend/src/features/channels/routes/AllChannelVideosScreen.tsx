// Every channel video, each leading to its page under its channel.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { AllChannelVideosDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

const allVideosQuery = (data: { page: number }) => ({
  query: AllChannelVideosDocument,
  variables: { page: data.page, size: PAGE_SIZE },
})

function AllChannelVideosView() {
  const { page, result } = useScreenQuery(allVideosQuery)
  return (
    <Page title={t('channels.all_videos')}>
      <Listing page={page.page} totalCount={result.allChannelVideos.totalCount} noun={t('listing.videos')}>
        <VideoGrid
          videos={result.allChannelVideos.videos}
          hrefFor={(video, item) => (item.channel ? `/channels/${item.channel.slug}/videos/${video.slug}` : `/videos/${video.slug}`)}
          priorityCount={4}
        />
      </Listing>
    </Page>
  )
}

export const AllChannelVideosScreen = withScreenQuery(AllChannelVideosView, allVideosQuery)
