// The curator wall (tenant feature curator): the curator's posts, each with the video it is about.
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { formatReleaseDate } from '../../../components/VideoCard/format'
import { VideoCard } from '../../../components/VideoCard/VideoCard'
import { CuratorWallDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

const wallQuery = () => ({ query: CuratorWallDocument, variables: {} })

function WallView() {
  const { result } = useScreenQuery(wallQuery)
  return (
    <Page title={t('navigation.wall')}>
      <ul className="video-grid" aria-label={t('wall.posts')}>
        {result.curatorWall.map((post, index) => (
          <li key={post.id}>
            <article className="video-card">
              {post.video ? <VideoCard video={post.video} priority={index < 2} /> : null}
              <h2 className="video-card__title">{post.title}</h2>
              <p className="muted">{formatReleaseDate(post.publishedAt)}</p>
              <p>{post.text}</p>
            </article>
          </li>
        ))}
      </ul>
    </Page>
  )
}

export const WallScreen = withScreenQuery(WallView, wallQuery)
