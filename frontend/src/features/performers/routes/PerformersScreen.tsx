// The performers list (order, gender, faceted sex).
import { Form, useSubmit } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import type { PerformersData } from './rules'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { PerformerGrid } from '../../../components/PerformerCard/PerformerCard'
import { PerformerListingDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'
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
