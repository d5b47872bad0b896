// What other features use of the unlocks feature. The components come through slots that load their code when they
// first render: importing them here directly would put their code (and their copy) into the importer's chunk.
export { DownloadPanelSlot as DownloadPanel } from './components/DownloadPanelSlot'
export { LockedVideoSlot as LockedVideo, preloadLockedVideo } from './components/LockedVideoSlot'
