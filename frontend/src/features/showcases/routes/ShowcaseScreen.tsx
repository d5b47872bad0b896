// A showcase (tenant feature showcasesPage): a curated set of videos.
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { ShowcasePageDocument } from '../../../gql/graphql'

const showcaseQuery = (data: { slug: string }) => ({ query: ShowcasePageDocument, variables: { slug: data.slug } })

function ShowcaseView() {
  const { result } = useScreenQuery(showcaseQuery)
  return (
    <Page title={result.showcase.title} shows={{ name: result.showcase.title, description: result.showcase.description }}>
      <p>{result.showcase.description}</p>
      <VideoGrid videos={result.showcase.videos} priorityCount={4} />
    </Page>
  )
}

export const ShowcaseScreen = withScreenQuery(ShowcaseView, showcaseQuery)
