// Angels (tenant feature showAngels): the list and an angel's profile with her videos.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { AngelListDocument, AngelPageDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/angels'

const listQuery = () => ({ query: AngelListDocument, variables: {} })

function AngelsView() {
  const { result } = useScreenQuery(listQuery)
  return (
    <Page title={t('navigation.angels')}>
      <ul className="performer-grid" aria-label={t('navigation.angels')}>
        {result.angels.map((angel, index) => (
          <li key={angel.slug}>
            <Link to={`/angels/${angel.slug}`} className="performer-card">
              <span className="performer-card__media">
                <Picture image={angel.image} alt="" className="performer-card__image" priority={index < 4} />
              </span>
              <span className="performer-card__name">{angel.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Page>
  )
}

export const AngelsScreen = withScreenQuery(AngelsView, listQuery)

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
