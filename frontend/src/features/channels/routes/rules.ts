// Channel routes: gated by abilities (./rows.json); a missing ability is not-found, never a login prompt (product.md, "Screens and routes").
import { guarded, notFound, page, pageIds, type RouteOutcome, type StopOutcome } from '../../../app/routing'

/** Channel pre-check (spec README): a channel that does not exist, or that the tenant does not carry, is not-found. */
export function channelPrecheck(isChannelCarried: boolean): StopOutcome | undefined {
  return isChannelCarried ? undefined : notFound
}

/** /channels */
export const channelsRule = guarded('/channels', (_input, { page: n }): RouteOutcome<{ page: number }> => page('channels', { page: n }))

/** /channels/all-videos: login plus "see Channels". */
export const allChannelVideosRule = guarded(
  '/channels/all-videos',
  (_input, { page: n }): RouteOutcome<{ page: number }> => page('allChannelVideos', { page: n }),
)

export interface ChannelData {
  channelSlug: string
}

/** /channels/:channelSlug */
export const channelRule = guarded('/channels/:channelSlug', ({ params }): RouteOutcome<ChannelData> => {
  const channelSlug = params.channelSlug ?? ''
  return page('channel', { channelSlug }, pageIds.channel(channelSlug))
})

/** /channels/:channelSlug/videos (shares the channel screen) */
export const channelVideosRule = guarded(
  '/channels/:channelSlug/videos',
  ({ params }, { page: n }): RouteOutcome<ChannelData & { page: number }> => {
    const channelSlug = params.channelSlug ?? ''
    return page('channelVideos', { channelSlug, page: n }, pageIds.channel(channelSlug))
  },
)

/** /channels/:channelSlug/packs/:channelPackSlug */
export const channelPackRule = guarded(
  '/channels/:channelSlug/packs/:channelPackSlug',
  ({ params }, { page: n }): RouteOutcome<ChannelData & { channelPackSlug: string; page: number }> => {
    const { channelSlug = '', channelPackSlug = '' } = params
    return page('channelPack', { channelSlug, channelPackSlug, page: n }, pageIds.channelPack(channelSlug, channelPackSlug))
  },
)

export interface ChannelVideoData extends ChannelData {
  videoSlug: string
}

const channelVideoSlugs = ({ channelSlug = '', videoSlug = '' }: Readonly<Record<string, string | undefined>>): ChannelVideoData => ({
  channelSlug,
  videoSlug,
})

/** /channels/:channelSlug/videos/:videoSlug */
export const channelVideoRule = guarded('/channels/:channelSlug/videos/:videoSlug', ({ params }): RouteOutcome<ChannelVideoData> => {
  const slugs = channelVideoSlugs(params)
  return page('channelVideo', slugs, pageIds.video(slugs.videoSlug))
})

/** /channels/:channelSlug/trailers/:videoSlug: authenticated plus "see ChannelTrailers" or "see InternalChannelTrailers". */
export const channelTrailerRule = guarded(
  '/channels/:channelSlug/trailers/:videoSlug',
  ({ params }): RouteOutcome<ChannelVideoData> => {
    const slugs = channelVideoSlugs(params)
    return page('channelTrailer', slugs, pageIds.trailer(slugs.videoSlug))
  },
)

/** /channels/:channelSlug/picturesets/:videoSlug */
export const channelPictureSetRule = guarded(
  '/channels/:channelSlug/picturesets/:videoSlug',
  ({ params }): RouteOutcome<ChannelVideoData> => {
    const slugs = channelVideoSlugs(params)
    return page('channelPictureSet', slugs, pageIds.pictureSet(slugs.videoSlug))
  },
)
