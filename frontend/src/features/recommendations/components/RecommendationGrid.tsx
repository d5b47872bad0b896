// A recommendation shelf's videos: a click on one tells the recommender which element of which shelf (recommId) was
// followed, before the page changes.
import type { MouseEvent, ReactNode } from 'react'
import { useSession } from '../../../app/session/SessionContext'
import { videoHref, type VideoCardVideo } from '../../../components/VideoCard/VideoCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { trackerOf, trackRecommendationClick } from '../tracking'

export interface RecommendationGridProps<V extends VideoCardVideo & { newId?: string }> {
  recommId: string
  videos: readonly V[]
  hrefFor?: (video: V) => string
  priorityCount?: number
  empty?: ReactNode
  label?: string
}

export function RecommendationGrid<V extends VideoCardVideo & { newId?: string }>({
  recommId,
  videos,
  hrefFor,
  ...grid
}: RecommendationGridProps<V>) {
  const { user } = useSession()
  const hrefOf = (video: V) => hrefFor?.(video) ?? videoHref(video.slug)
  function onClickCapture(event: MouseEvent<HTMLDivElement>) {
    const anchor = (event.target as Element | null)?.closest('a[href]')
    if (!anchor) return
    const href = anchor.getAttribute('href')
    const video = videos.find((candidate) => hrefOf(candidate) === href)
    if (!video) return
    void trackRecommendationClick(trackerOf(user.profile), video.slug, recommId)
  }
  return (
    <div className="recommendation-grid" data-recomm-id={recommId} onClickCapture={onClickCapture}>
      <VideoGrid videos={videos} hrefFor={hrefFor} {...grid} />
    </div>
  )
}
