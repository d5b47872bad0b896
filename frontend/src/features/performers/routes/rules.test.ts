import { describe, expect, it } from 'vitest'
import { routeInput } from '../../../app/routing/testing'
import { categoryMove, favoriteModelsMove, modelMove, modelsMove, reelsMove, tube2Rule } from './rules'

const moved = (location: string) => ({ kind: 'redirect', status: 301, location })
const notFound = { kind: 'notFound' }

describe('permanent moves', () => {
  it('/models: 301 to the performers list, keeping the query', () => {
    expect(modelsMove(routeInput('/models?order=name&page=2'))).toEqual(moved('/performers?order=name&page=2'))
    expect(modelsMove(routeInput('/models'))).toEqual(moved('/performers'))
  })

  it('/models/{slug}: invalid slug goes to not-found', () => {
    expect(modelMove(routeInput('/models/Jane', { params: { slug: 'Jane' } }))).toEqual(notFound)
  })

  it('/models/{slug}: otherwise 301 to /performers/{slug}', () => {
    expect(modelMove(routeInput('/models/jane-doe', { params: { slug: 'jane-doe' } }))).toEqual(moved('/performers/jane-doe'))
  })

  it('/categories/{slug}: invalid slug goes to not-found', () => {
    expect(categoryMove(routeInput('/categories/a--b', { params: { slug: 'a--b' } }))).toEqual(notFound)
  })

  it('/categories/{slug}: otherwise 301 to the search screen with search={slug}', () => {
    expect(categoryMove(routeInput('/categories/blonde', { params: { slug: 'blonde' } }))).toEqual(
      moved('/search?search=blonde'),
    )
  })

  it('/reels/{uuid?}: 301 to the quickies route', () => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'
    expect(reelsMove(routeInput(`/reels/${uuid}`, { params: { uuid } }))).toEqual(moved(`/quickies/${uuid}`))
    expect(reelsMove(routeInput('/reels'))).toEqual(moved('/quickies'))
  })

  it('/favorites/models: 301 to /favorites/performers', () => {
    expect(favoriteModelsMove(routeInput('/favorites/models'))).toEqual(moved('/favorites/performers'))
  })
})

describe('/tube2', () => {
  it('redirects home, keeping the query', () => {
    expect(tube2Rule(routeInput('/tube2?utm=a&x=1'))).toEqual({ kind: 'redirect', status: 302, location: '/?utm=a&x=1' })
    expect(tube2Rule(routeInput('/tube2'))).toEqual({ kind: 'redirect', status: 302, location: '/' })
  })
})
