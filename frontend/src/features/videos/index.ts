// What other features may use of the videos feature: its pages, shown under a channel too.
export { VideoPage } from './components/VideoPageView'
export { TrailerPage } from './components/TrailerPageView'
export { PictureSetPage } from './components/PictureSetView'
