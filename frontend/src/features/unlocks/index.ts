// What other features use of the unlocks feature.
export { DownloadPanel } from './components/DownloadPanel'
export { LockedVideo } from './components/LockedVideo'
