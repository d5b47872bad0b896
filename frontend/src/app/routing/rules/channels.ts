// Channel routes: gated by abilities; a missing ability is not-found, never a login prompt (§6).
import { requireAbility, requireAuthentication } from '../access'
import { ABILITIES } from '../constants'
import type { RouteInput } from '../context'
import { notFound, page, redirect, type RouteOutcome, type StopOutcome } from '../outcome'
import { pageIds } from '../pageIds'
import { parsePage } from '../query'
import { isValidSlug } from '../slug'

/** The "channel ability" of the route table. */
const requireChannelAbility = (input: RouteInput) => requireAbility(input, ABILITIES.seeChannels)

/** Channel pre-check (spec README): a channel that does not exist, or that the tenant does not carry, is not-found. */
export function channelPrecheck(isChannelCarried: boolean): StopOutcome | undefined {
  return isChannelCarried ? undefined : notFound
}

/** An optional page query: below 1 or non-numeric redirects to the same route with the query cleared. */
function optionalPage(input: RouteInput): { page: number } | StopOutcome {
  const pageParam = parsePage(input.query.get('page'))
  return pageParam.valid ? { page: pageParam.page } : redirect(input.pathname)
}

const isStop = (value: object): value is StopOutcome => 'kind' in value

/** /channels */
export function channelsRule(input: RouteInput): RouteOutcome<{ page: number }> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const paging = optionalPage(input)
  if (isStop(paging)) return paging
  return page('channels', paging)
}

/** /channels/all-videos: login plus "see Channels". */
export function allChannelVideosRule(input: RouteInput): RouteOutcome<{ page: number }> {
  const denied = requireAuthentication(input) ?? requireChannelAbility(input)
  if (denied) return denied
  const paging = optionalPage(input)
  if (isStop(paging)) return paging
  return page('allChannelVideos', paging)
}

export interface ChannelData {
  channelSlug: string
}

/** /channels/:channelSlug */
export function channelRule(input: RouteInput): RouteOutcome<ChannelData> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const { channelSlug } = input.params
  if (!isValidSlug(channelSlug)) return notFound
  return page('channel', { channelSlug }, pageIds.channel(channelSlug))
}

/** /channels/:channelSlug/videos (shares the channel screen) */
export function channelVideosRule(input: RouteInput): RouteOutcome<ChannelData & { page: number }> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const { channelSlug } = input.params
  if (!isValidSlug(channelSlug)) return notFound
  const paging = optionalPage(input)
  if (isStop(paging)) return paging
  return page('channelVideos', { channelSlug, ...paging }, pageIds.channel(channelSlug))
}

/** /channels/:channelSlug/packs/:channelPackSlug */
export function channelPackRule(
  input: RouteInput,
): RouteOutcome<ChannelData & { channelPackSlug: string; page: number }> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const { channelSlug, channelPackSlug } = input.params
  if (!isValidSlug(channelSlug) || !isValidSlug(channelPackSlug)) return notFound
  const paging = optionalPage(input)
  if (isStop(paging)) return paging
  return page(
    'channelPack',
    { channelSlug, channelPackSlug, ...paging },
    pageIds.channelPack(channelSlug, channelPackSlug),
  )
}

export interface ChannelVideoData extends ChannelData {
  videoSlug: string
}

function channelVideoSlugs(input: RouteInput): ChannelVideoData | undefined {
  const { channelSlug, videoSlug } = input.params
  return isValidSlug(channelSlug) && isValidSlug(videoSlug) ? { channelSlug, videoSlug } : undefined
}

/** /channels/:channelSlug/videos/:videoSlug */
export function channelVideoRule(input: RouteInput): RouteOutcome<ChannelVideoData> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const slugs = channelVideoSlugs(input)
  if (!slugs) return notFound
  return page('channelVideo', slugs, pageIds.video(slugs.videoSlug))
}

/** /channels/:channelSlug/trailers/:videoSlug: authenticated plus "see ChannelTrailers" or "see InternalChannelTrailers". */
export function channelTrailerRule(input: RouteInput): RouteOutcome<ChannelVideoData> {
  const denied =
    requireAuthentication(input) ??
    requireAbility(input, ABILITIES.seeChannelTrailers, ABILITIES.seeInternalChannelTrailers)
  if (denied) return denied
  const slugs = channelVideoSlugs(input)
  if (!slugs) return notFound
  return page('channelTrailer', slugs, pageIds.trailer(slugs.videoSlug))
}

/** /channels/:channelSlug/picturesets/:videoSlug */
export function channelPictureSetRule(input: RouteInput): RouteOutcome<ChannelVideoData> {
  const denied = requireChannelAbility(input)
  if (denied) return denied
  const slugs = channelVideoSlugs(input)
  if (!slugs) return notFound
  return page('channelPictureSet', slugs, pageIds.pictureSet(slugs.videoSlug))
}
