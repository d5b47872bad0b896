import type { ReactNode } from 'react'
import { getFragmentData } from '../../gql/fragment-masking'
import { VideoCard_VideoFragmentDoc, type VideoCard_VideoFragment } from '../../gql/graphql'
import { VideoCard, type VideoCardVideo } from './VideoCard'

export interface VideoGridProps<V extends VideoCardVideo> {
  videos: readonly V[]
  /** Where each card leads (from the card's data, and the list item with whatever else its query selected). */
  hrefFor?: (video: VideoCard_VideoFragment, item: V) => string
  /** How many of the first cards load eagerly (above the fold on a desktop). */
  priorityCount?: number
  titleAs?: 'h2' | 'h3'
  /** Shown instead of an empty grid. */
  empty?: ReactNode
  label?: string
}

/** A responsive grid of video cards: one column at 360 px, two from 481 px, three from 769 px, four from 1286 px. */
export function VideoGrid<V extends VideoCardVideo>({
  videos,
  hrefFor,
  priorityCount = 0,
  titleAs,
  empty = null,
  label,
}: VideoGridProps<V>) {
  if (videos.length === 0) return <>{empty}</>
  return (
    <ul className="video-grid" aria-label={label}>
      {videos.map((masked, index) => {
        const video = getFragmentData(VideoCard_VideoFragmentDoc, masked)
        return (
          // Lists key by newId (product.md, "Screens and routes") where the catalog sends it.
          <li key={video.newId ?? video.slug}>
            <VideoCard video={masked} href={hrefFor?.(video, masked)} priority={index < priorityCount} titleAs={titleAs} />
          </li>
        )
      })}
    </ul>
  )
}
