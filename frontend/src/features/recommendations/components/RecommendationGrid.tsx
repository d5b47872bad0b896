// A recommendation shelf's videos: a click on one tells the recommender which element of which shelf (recommId) was
// followed, before the page changes.
import type { MouseEvent, ReactNode } from 'react'
import { useSession } from '../../../app/session/SessionContext'
import { videoHref, type VideoCardVideo } from '../../../components/VideoCard/VideoCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { getFragmentData } from '../../../gql/fragment-masking'
import { VideoCard_VideoFragmentDoc, type VideoCard_VideoFragment } from '../../../gql/graphql'
import { trackerOf, trackRecommendationClick } from '../tracking'

export interface RecommendationGridProps<V extends VideoCardVideo> {
  recommId: string
  videos: readonly V[]
  hrefFor?: (video: VideoCard_VideoFragment, item: V) => string
  priorityCount?: number
  empty?: ReactNode
  label?: string
}

export function RecommendationGrid<V extends VideoCardVideo>({
  recommId,
  videos,
  hrefFor,
  ...grid
}: RecommendationGridProps<V>) {
  const { user } = useSession()
  const hrefOf = (item: V) => {
    const video = getFragmentData(VideoCard_VideoFragmentDoc, item)
    return hrefFor?.(video, item) ?? videoHref(video.slug)
  }
  function onClickCapture(event: MouseEvent<HTMLDivElement>) {
    const anchor = (event.target as Element | null)?.closest('a[href]')
    if (!anchor) return
    const href = anchor.getAttribute('href')
    const item = videos.find((candidate) => hrefOf(candidate) === href)
    if (!item) return
    void trackRecommendationClick(trackerOf(user.profile), getFragmentData(VideoCard_VideoFragmentDoc, item).slug, recommId)
  }
  return (
    <div className="recommendation-grid" data-recomm-id={recommId} onClickCapture={onClickCapture}>
      <VideoGrid videos={videos} hrefFor={hrefFor} {...grid} />
    </div>
  )
}
