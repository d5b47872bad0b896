import { describe, expect, it } from 'vitest'
import { routeInput } from '../../../app/routing/testing'
import { categoriesRule, categoryMove } from './rules'

const notFound = { kind: 'notFound' }
const moved = (location: string) => ({ kind: 'redirect', status: 301, location })

describe('/categories', () => {
  it('renders when the category list is loaded', () => {
    expect(categoriesRule(routeInput('/categories'), true)).toEqual({
      kind: 'page',
      screen: 'categories',
      data: { fallback: null },
    })
  })

  it('otherwise the fallback loads the category list, then renders', () => {
    expect(categoriesRule(routeInput('/categories'), false)).toMatchObject({ data: { fallback: 'loadCategoryList' } })
  })
})

describe('permanent moves', () => {
  it('/categories/{slug}: invalid slug goes to not-found', () => {
    expect(categoryMove(routeInput('/categories/a--b', { params: { slug: 'a--b' } }))).toEqual(notFound)
  })

  it('/categories/{slug}: otherwise 301 to the search screen with search={slug}', () => {
    expect(categoryMove(routeInput('/categories/blonde', { params: { slug: 'blonde' } }))).toEqual(
      moved('/search?search=blonde'),
    )
  })
})
