// Angels (tenant feature showAngels): the list.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { AngelListDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'

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
