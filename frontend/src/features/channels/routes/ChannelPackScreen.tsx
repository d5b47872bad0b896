// A channel pack: its videos, and its unlock with gems.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { ChannelPackPageDocument } from '../../../gql/graphql'
import { PackUnlockButton } from '../../gems'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import { channelVideoHref } from './channelVideoHref'

const packQuery = (data: { channelSlug: string; channelPackSlug: string; page: number }) => ({
  query: ChannelPackPageDocument,
  variables: { channelSlug: data.channelSlug, channelPackSlug: data.channelPackSlug, page: data.page, size: PAGE_SIZE },
})

function ChannelPackView() {
  const { page, result } = useScreenQuery(packQuery)
  const { channel, pack, videos } = result.channelPack
  return (
    <Page title={pack.name} shows={{ name: pack.name }}>
      <p>
        <Link to={`/channels/${channel.slug}`}>{channel.name}</Link>
      </p>
      <PackUnlockButton channelPackId={pack.channelPackId} packName={pack.name} />
      <Listing page={page.page} totalCount={videos.totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={videos.videos} hrefFor={channelVideoHref(channel.slug)} priorityCount={4} />
      </Listing>
    </Page>
  )
}

export const ChannelPackScreen = withScreenQuery(ChannelPackView, packQuery)
