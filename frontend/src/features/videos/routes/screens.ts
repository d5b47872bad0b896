// The videos routes' screens, one lazy chunk (./index.ts imports this module): the listing with its filters, the
// video, trailer and picture set pages (components/), top rated, awards and the free trial's videos. Each screen is
// in its own file.
export { VideosScreen } from './VideosScreen'
export { VideoPage as VideoScreen, TrailerPage as TrailerScreen, PictureSetPage as PictureSetScreen } from '../index'
export { TopRatedScreen } from './TopRatedScreen'
export { AwardsScreen } from './AwardsScreen'
export { FreeTrialVideosScreen } from './FreeTrialVideosScreen'
