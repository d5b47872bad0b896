// The channels routes' screens, one lazy chunk (./index.ts imports this module): the list, a channel with its packs
// and videos, a pack, the channel's video, trailer and picture set pages (the videos feature's), and every channel
// video. Each screen is in its own file.
export { ChannelsScreen } from './ChannelsScreen'
export { ChannelScreen } from './ChannelScreen'
export { ChannelPackScreen } from './ChannelPackScreen'
export { VideoPage as ChannelVideoScreen, TrailerPage as ChannelTrailerScreen, PictureSetPage as ChannelPictureSetScreen } from '../../videos'
export { AllChannelVideosScreen } from './AllChannelVideosScreen'
