// The download buttons, loaded only for a user who may download: the panel's code (its two GraphQL documents, the
// quota line and its copy) stays out of a visitor's video page. The panel shows nothing until its query answers, so
// nothing stands in its place while the code loads either.
import { lazy, Suspense } from 'react'

const DownloadPanel = lazy(() => import('./DownloadPanel').then((module) => ({ default: module.DownloadPanel })))

export function DownloadPanelSlot({ videoId }: { videoId: string }) {
  return (
    <Suspense fallback={null}>
      <DownloadPanel videoId={videoId} />
    </Suspense>
  )
}
