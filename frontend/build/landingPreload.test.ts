import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { featureScreenModules, pathPattern, preloadScript, routeScreenModules } from './landingPreload'

const featuresDir = join(process.cwd(), 'src/features')
const declarations = readdirSync(featuresDir)
  .map((feature) => join(featuresDir, feature, 'routes', 'index.ts'))
  .filter((file) => existsSync(file))
  .map((file) => readFileSync(file, 'utf8'))

describe('routeScreenModules', () => {
  it("finds every route of the features' declarations that has a screen, with the module its screen loads", () => {
    const unread: string[] = []
    const found = featureScreenModules(featuresDir, unread)
    expect(unread).toEqual([])
    const screens = declarations.reduce((count, source) => {
      const list = source.slice(source.search(/^export const \w+Routes\b/m))
      return count + (list.match(/screen: /g)?.length ?? 0)
    }, 0)
    expect(found).toHaveLength(screens)
    const moduleOf = (path: string) => found.find((route) => route.path === path)?.module
    expect(moduleOf('/')).toBe(join(featuresDir, 'home/routes/screens'))
    expect(moduleOf('/videos/:slug')).toBe(join(featuresDir, 'videos/routes/screens'))
    expect(moduleOf('/toprated')).toBe(join(featuresDir, 'videos/routes/screens'))
    expect(moduleOf('/_signup-extern/:biller')).toBe(join(featuresDir, 'signup/routes/screens'))
    expect(moduleOf('*')).toBe(join(featuresDir, 'signup/routes/screens'))
    expect(found.some((route) => route.path === '/models')).toBe(false)
  })

  it('names the routes whose screen it cannot read instead of guessing', () => {
    const unread: string[] = []
    const source = `const screens = () => import('./screens')
export const homeRoutes: ReadonlyArray<AppRoute<RouteServices>> = [
  { path: '/', load: homeRule, screen: screen('home', screens, (m) => m.HomeScreen) },
  { path: '/odd', load: oddRule, screen: somethingElse },
]`
    expect(routeScreenModules(source, unread)).toEqual([{ path: '/', module: './screens' }])
    expect(unread).toEqual(['/odd'])
  })
})

describe('pathPattern', () => {
  const matches = (path: string, pathname: string) => new RegExp(pathPattern(path)).test(pathname)

  it('matches what react-router matches', () => {
    expect(matches('/', '/')).toBe(true)
    expect(matches('/', '/videos')).toBe(false)
    expect(matches('/videos/:slug', '/videos/a-video')).toBe(true)
    expect(matches('/videos/:slug', '/videos/a-video/')).toBe(true)
    expect(matches('/videos/:slug', '/videos')).toBe(false)
    expect(matches('/videos/:slug', '/videos/a/comment/1')).toBe(false)
    expect(matches('/quickies/:uuid?', '/quickies')).toBe(true)
    expect(matches('/quickies/:uuid?', '/quickies/5f0c')).toBe(true)
    expect(matches('/_signup-extern/:biller', '/_signup-extern/epoch')).toBe(true)
    expect(matches('/2257', '/2257')).toBe(true)
  })
})

describe('the inline script', () => {
  it("adds the current path's files as preloads, style sheets as styles, once", () => {
    const added: Array<Record<string, string>> = []
    const fakeDocument = {
      createElement: () => {
        const attributes: Record<string, string> = {}
        return Object.assign(attributes, { setAttribute: (name: string, value: string) => (attributes[name] = value) })
      },
      head: { appendChild: (link: Record<string, string>) => added.push(link) },
    }
    const script = preloadScript('/', ['assets/a.css', 'assets/a.js', 'assets/home.js'], [
      [pathPattern('/videos/:slug'), [0, 1]],
      [pathPattern('/'), [2]],
      [pathPattern('/videos/:slug'), [2]],
    ])
    new Function('location', 'document', script)({ pathname: '/Videos/a-video' }, fakeDocument)
    expect(added.map(({ rel, href, as, crossOrigin }) => ({ rel, href, as, crossOrigin }))).toEqual([
      { rel: 'preload', href: '/assets/a.css', as: 'style', crossOrigin: '' },
      { rel: 'modulepreload', href: '/assets/a.js', as: undefined, crossOrigin: '' },
    ])
  })
})
