// The performers list (order, gender, faceted sex) and a performer's page with their videos.
import { Form, useSubmit } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import type { PerformersData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { useSession } from '../../../app/session/SessionContext'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { VideoGrid } from '../../../components/VideoCard/VideoGrid'
import { VisitorJoin } from '../../../components/VisitorJoin'
import { PerformerListingDocument, PerformerPageDocument } from '../../../gql/graphql'
import './performers.css'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/performers'
import '../../../app/i18n/copy/shared'

const listQuery = (data: PerformersData) => ({
  query: PerformerListingDocument,
  variables: { order: data.order, gender: data.gender, sex: data.sex, page: data.page, size: PAGE_SIZE },
})

function PerformersView() {
  const { page, result } = useScreenQuery(listQuery)
  const submit = useSubmit()
  return (
    <Page title={t('navigation.models')}>
      <Form method="get" action="/performers" className="filters" onChange={(event) => submit(event.currentTarget)}>
        <label htmlFor="performers-order">{t('videos.order.label')}</label>
        <select id="performers-order" name="order" defaultValue={page.order}>
          <option value="rating">{t('performers.order.rating')}</option>
          <option value="name">{t('performers.order.name')}</option>
          <option value="newest">{t('performers.order.newest')}</option>
          <option value="videos">{t('performers.order.videos')}</option>
        </select>
        {page.sex === null ? (
          <>
            <label htmlFor="performers-gender">{t('performers.show')}</label>
            <select id="performers-gender" name="gender" defaultValue={page.gender}>
              <option value="girls">{t('performers.gender.girls')}</option>
              <option value="guys">{t('performers.gender.guys')}</option>
              <option value="all">{t('performers.gender.all')}</option>
            </select>
          </>
        ) : (
          <>
            <label htmlFor="performers-sex">{t('performers.show')}</label>
            <select id="performers-sex" name="sex" defaultValue={page.sex}>
              <option value="F">{t('performers.sex.F')}</option>
              <option value="M">{t('performers.sex.M')}</option>
            </select>
          </>
        )}
        <button type="submit" className="button">
          {t('common.apply')}
        </button>
      </Form>
      <Listing page={page.page} totalCount={result.performers.totalCount} noun={t('listing.models')}>
        <PerformerGrid performers={result.performers.performers} />
      </Listing>
    </Page>
  )
}

export const PerformersScreen = withScreenQuery(PerformersView, listQuery)

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
