// The brand's categories; each leads to the search of its name (the old /categories/{slug} moved there).
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { CategoryListDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'

// The route's precondition (the tenant's category list is loaded) is met by this query: its fallback loads the
// list, and the page renders once it is there.
const categoriesQuery = () => ({ query: CategoryListDocument, variables: {} })

function CategoriesView() {
  const { result } = useScreenQuery(categoriesQuery)
  return (
    <Page title={t('navigation.categories')}>
      <ul className="performer-grid" aria-label={t('navigation.categories')}>
        {result.categories.map((category) => (
          <li key={category.slug}>
            <Link to={`/search?q=${encodeURIComponent(category.name)}`} className="performer-card">
              <span className="video-card__media">
                <Picture image={category.image} alt="" className="video-card__image" />
              </span>
              <span className="performer-card__name">{category.name}</span>
              <span className="muted">{t('performers.video_count', { count: category.videoCount })}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Page>
  )
}

export const CategoriesScreen = withScreenQuery(CategoriesView, categoriesQuery)
