// Top rated videos.
import { useLoaderData } from 'react-router'
import type { PageOutcome } from '../../../app/routing'
import type { TopRatedResult } from './rules'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import type { VideoCardVideo } from '../../../components/VideoCard/VideoCard'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { GridJoin } from './GridJoin'

/** /toprated: its loader fetched GET /toprated with the page's query; the videos come in the loader's data. */
export function TopRatedScreen() {
  const outcome = useLoaderData() as PageOutcome<TopRatedResult<VideoCardVideo & { newId?: string }> & { query: string }>
  const videos = outcome.data.videos
  const totalCount = Number(outcome.data.rest.totalCount ?? videos.length)
  const page = Number(new URLSearchParams(outcome.data.query).get('page') ?? 1) || 1
  return (
    <Page title={t('navigation.top_rated')}>
      <Listing page={page} totalCount={totalCount} noun={t('listing.videos')}>
        <VideoGrid videos={videos} priorityCount={4} empty={<p>{t('videos.no_rated')}</p>} />
      </Listing>
      <GridJoin />
    </Page>
  )
}
