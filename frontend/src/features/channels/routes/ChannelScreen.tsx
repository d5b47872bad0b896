// A channel with its packs and videos.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { ChannelPageDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import { channelVideoHref } from './channelVideoHref'

const channelQuery = (data: { channelSlug: string; page?: number }) => ({
  query: ChannelPageDocument,
  variables: { channelSlug: data.channelSlug, page: data.page ?? 1, size: PAGE_SIZE },
})

/** /channels/:channelSlug and /channels/:channelSlug/videos share this screen. */
function ChannelView() {
  const { page, result } = useScreenQuery(channelQuery)
  const { channel, channelVideos } = result
  return (
    <Page title={channel.name} shows={{ name: channel.name }}>
      {channel.packs.length > 0 ? (
        <>
          <h2>{t('channels.packs')}</h2>
          <ul className="tags" aria-label={t('channels.packs')}>
            {channel.packs.map((pack) => (
              <li key={pack.channelPackId}>
                <Link to={`/channels/${channel.slug}/packs/${pack.slug}`}>{pack.name}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h2>{t('navigation.videos')}</h2>
      <Listing page={page.page ?? 1} totalCount={channelVideos.totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={channelVideos.videos} hrefFor={channelVideoHref(channel.slug)} priorityCount={4} />
      </Listing>
    </Page>
  )
}

export const ChannelScreen = withScreenQuery(ChannelView, channelQuery)
