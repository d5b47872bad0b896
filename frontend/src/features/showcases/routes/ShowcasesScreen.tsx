// Showcases (tenant feature showcasesPage): the list of curated sets of videos.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { ShowcaseListDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'

const listQuery = () => ({ query: ShowcaseListDocument, variables: {} })

function ShowcasesView() {
  const { result } = useScreenQuery(listQuery)
  return (
    <Page title={t('navigation.showcases')}>
      <ul className="video-grid" aria-label={t('navigation.showcases')}>
        {result.showcases.map((showcase, index) => (
          <li key={showcase.slug}>
            <Link to={`/showcase/${showcase.slug}`} className="video-card__link">
              <span className="video-card__media">
                <Picture image={showcase.image} alt="" className="video-card__image" priority={index < 2} />
              </span>
              <span className="video-card__title">{showcase.title}</span>
            </Link>
            <p className="muted">{showcase.description}</p>
          </li>
        ))}
      </ul>
    </Page>
  )
}

export const ShowcasesScreen = withScreenQuery(ShowcasesView, listQuery)
