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

const listQuery = (data: PerformersData) => ({
  query: PerformerListingDocument,
  variables: { order: data.order, gender: data.gender, sex: data.sex, page: data.page, size: PAGE_SIZE },
})

function PerformersView() {
  const { page, result } = useScreenQuery(listQuery)
  const submit = useSubmit()
  return (
    <Page title="Models">
      <Form method="get" action="/performers" className="filters" onChange={(event) => submit(event.currentTarget)}>
        <label htmlFor="performers-order">Order</label>
        <select id="performers-order" name="order" defaultValue={page.order}>
          <option value="rating">Top rated</option>
          <option value="name">Name</option>
          <option value="newest">Newest</option>
          <option value="videos">Most videos</option>
        </select>
        {page.sex === null ? (
          <>
            <label htmlFor="performers-gender">Show</label>
            <select id="performers-gender" name="gender" defaultValue={page.gender}>
              <option value="girls">Girls</option>
              <option value="guys">Guys</option>
              <option value="all">All</option>
            </select>
          </>
        ) : (
          <>
            <label htmlFor="performers-sex">Show</label>
            <select id="performers-sex" name="sex" defaultValue={page.sex}>
              <option value="F">Female</option>
              <option value="M">Male</option>
            </select>
          </>
        )}
        <button type="submit" className="button">
          Apply
        </button>
      </Form>
      <Listing page={page.page} totalCount={result.performers.totalCount} noun="models">
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
    <Page title={performer.name}>
      <div className="performer-profile">
        <Picture image={performer.image} alt={performer.name} priority className="performer-profile__image" />
        <p className="muted">
          {performer.videoCount} videos{performer.rating >= 0 ? ` · ★ ${performer.rating.toFixed(1)}` : ''}
          {performer.sites.length > 0 ? ` · ${performer.sites.map((site) => site.toUpperCase()).join(', ')}` : ''}
        </p>
        <VisitorJoin elm="model-name" campaign="modelName">
          Join {tenant.site} for {performer.name}
        </VisitorJoin>
      </div>
      <h2>Videos</h2>
      <Listing page={page.page} totalCount={videos.totalCount}>
        <VideoGrid videos={videos.videos} />
      </Listing>
      <VisitorJoin
        elm="model"
        campaign="model"
        lead={
          performer.videoCount > 1
            ? `All ${performer.videoCount} of ${performer.name}'s videos in full.`
            : `${performer.name}'s videos in full.`
        }
      >
        Join {tenant.site}
      </VisitorJoin>
    </Page>
  )
}

export const PerformerScreen = withScreenQuery(PerformerView, performerQuery)
