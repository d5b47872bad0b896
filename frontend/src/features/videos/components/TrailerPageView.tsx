// The trailer page: the trailer, playing at once, with the way to the full video.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { useSession } from '../../../app/session/SessionContext'
import { JoinLink } from '../../../components/JoinLink'
import { Page } from '../../../components/Page'
import { videoPageQuery } from './VideoPageView'
import { Trailer } from './VideoPlayer'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

function TrailerPageView() {
  const { page, result } = useScreenQuery(videoPageQuery)
  const { user, tenant } = useSession()
  const { video } = result.getVideo
  const videoHref = page.channelSlug ? `/channels/${page.channelSlug}/videos/${video.slug}` : `/videos/${video.slug}`
  return (
    <Page
      title={t('videos.trailer_title', { title: video.title })}
      shows={{ name: video.title, description: video.description }}
    >
      <Trailer video={video} autoPlay />
      <p className="video-page__actions">
        <Link className="button" to={videoHref}>
          {t('videos.go_to_video')}
        </Link>
        {!user.isAuthenticated ? <JoinLink elm="trailer">{t('join.site', { site: tenant.site })}</JoinLink> : null}
      </p>
    </Page>
  )
}

export const TrailerPage = withScreenQuery(TrailerPageView, videoPageQuery)
