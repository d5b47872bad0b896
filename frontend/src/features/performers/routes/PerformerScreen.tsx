// A performer's page with their videos.
import { PAGE_SIZE } from '../../../app/routing'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { PerformerPageDocument } from '../../../gql/graphql'
import './performers.css'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

const performerQuery = (data: { slug: string; page: number }) => ({
  query: PerformerPageDocument,
  variables: { slug: data.slug, page: data.page, size: PAGE_SIZE },
})

function PerformerView() {
  const { page, result } = useScreenQuery(performerQuery)
  const { performer, videos } = result.performer
  const { tenant } = useSession()
  return (
    <Page title={performer.name} shows={{ name: performer.name }}>
      <div className="performer-profile">
        <Picture image={performer.image} alt={performer.name} priority className="performer-profile__image" />
        <p className="muted">
          {t('performers.video_count', { count: performer.videoCount })}
          {performer.rating >= 0 ? ` · ★ ${performer.rating.toFixed(1)}` : ''}
          {performer.sites.length > 0 ? ` · ${performer.sites.map((site) => site.toUpperCase()).join(', ')}` : ''}
        </p>
        <VisitorJoin elm="model-name" campaign="modelName">
          {t('performers.join_for', { site: tenant.site, name: performer.name })}
        </VisitorJoin>
      </div>
      <h2>{t('navigation.videos')}</h2>
      <Listing page={page.page} totalCount={videos.totalCount}>
        <VideoGrid videos={videos.videos} />
      </Listing>
      <VisitorJoin
        elm="model"
        campaign="model"
        lead={
          performer.videoCount > 1
            ? t('performers.lead_all', { count: performer.videoCount, name: performer.name })
            : t('performers.lead', { name: performer.name })
        }
      >
        {t('join.site', { site: tenant.site })}
      </VisitorJoin>
    </Page>
  )
}

export const PerformerScreen = withScreenQuery(PerformerView, performerQuery)
