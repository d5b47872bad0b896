// An angel's profile with her videos (tenant feature showAngels).
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { AngelPageDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

const angelQuery = (data: { slug: string }) => ({ query: AngelPageDocument, variables: { slug: data.slug } })

function AngelView() {
  const { result } = useScreenQuery(angelQuery)
  const { angel } = result
  return (
    <Page title={angel.name} shows={{ name: angel.name, description: angel.bio }}>
      <div className="performer-profile">
        <Picture image={angel.image} alt={angel.name} priority />
      </div>
      <p>{angel.bio}</p>
      {angel.performer ? (
        <p>
          <Link to={`/performers/${angel.performer.slug}`}>{t('angels.all_videos_with', { name: angel.performer.name })}</Link>
        </p>
      ) : null}
      <VideoGrid videos={angel.videos} />
    </Page>
  )
}

export const AngelScreen = withScreenQuery(AngelView, angelQuery)
