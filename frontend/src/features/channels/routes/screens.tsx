// Channels: the list, a channel with its packs and videos, a pack, the channel's video, trailer and picture set
// pages, and every channel video.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { useSessionIfAny } from '../../../app/session/SessionContext'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import {
  AllChannelVideosDocument,
  ChannelListingDocument,
  ChannelPackPageDocument,
  ChannelPageDocument,
  ChannelCard_ChannelFragmentDoc,
} from '../../../gql/graphql'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { PackUnlockButton } from '../../gems'
import { PictureSetPage, TrailerPage, VideoPage } from '../../videos'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/channels'
import '../../../app/i18n/copy/shared'

const channelVideoHref = (channelSlug: string) => (video: { slug: string }) => `/channels/${channelSlug}/videos/${video.slug}`

const listQuery = (data: { page: number }) => ({
  query: ChannelListingDocument,
  variables: { page: data.page, size: PAGE_SIZE },
})

function ChannelsView() {
  const { page, result } = useScreenQuery(listQuery)
  // Every channel video is a member's list (config/routes.json: signed in, and "see Channels"): a visitor is not
  // shown a link the route would answer not-found.
  const user = useSessionIfAny()?.user
  const mayListAll = user?.isAuthenticated === true && user.can('see', 'Channels')
  return (
    <Page title={t('navigation.channels')}>
      {mayListAll && (
        <p>
          <Link to="/channels/all-videos">{t('channels.all_videos')}</Link>
        </p>
      )}
      <Listing page={page.page} totalCount={result.channels.totalCount} noun={t('listing.channels')}>
        <ul className="performer-grid" aria-label={t('navigation.channels')}>
          {result.channels.channels.map((channel) => (
            <li key={getFragmentData(ChannelCard_ChannelFragmentDoc, channel).channelId}>
              <ChannelCard channel={channel} />
            </li>
          ))}
        </ul>
      </Listing>
    </Page>
  )
}

/** A channel in the list: the ChannelCard_channel fragment. */
function ChannelCard({ channel: masked }: { channel: FragmentType<typeof ChannelCard_ChannelFragmentDoc> }) {
  const channel = getFragmentData(ChannelCard_ChannelFragmentDoc, masked)
  return (
    <Link to={`/channels/${channel.slug}`} className="performer-card">
      <span className="video-card__media">
        <Picture image={channel.image} alt="" className="video-card__image" />
      </span>
      <span className="performer-card__name">{channel.name}</span>
      <span className="muted">{t('performers.video_count', { count: channel.videoCount })}</span>
    </Link>
  )
}

export const ChannelsScreen = withScreenQuery(ChannelsView, listQuery)

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
export const ChannelVideoScreen = VideoPage
export const ChannelTrailerScreen = TrailerPage
export const ChannelPictureSetScreen = PictureSetPage

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
