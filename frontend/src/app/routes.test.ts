// Each feature owns its routes: the rows of the route table in its routes/rows.json, and the routes it declares in
// routes/index.ts. config/routes.json (which the gateway's edge builds in) is generated from the rows
// (scripts/route-table.mjs; `npm run lint` fails when the committed file differs from what they generate).
import { describe, expect, it } from 'vitest'
import { featureRoutes } from './routes'
import { ROUTE_ROWS, type RouteRow } from './routing'

const fragments = import.meta.glob<readonly RouteRow[]>('../features/*/routes/rows.json', { eager: true, import: 'default' })
const rowsByFeature = new Map(
  Object.entries(fragments).map(([file, rows]) => [file.split('/')[2]!, rows] as const),
)

describe("the features' routes", () => {
  it('are declared by exactly the features that hold rows of the table', () => {
    expect(Object.keys(featureRoutes).sort()).toEqual([...rowsByFeature.keys()].sort())
  })

  it("declare each of their own rows once, and no other feature's, each running its own row", () => {
    for (const [feature, routes] of Object.entries(featureRoutes)) {
      const rows = rowsByFeature.get(feature) ?? []
      expect(routes.map((route) => route.path), feature).toEqual(rows.map((row) => row.path))
      for (const route of routes) expect(route.load.routePath, `${feature} ${route.path}`).toBe(route.path)
    }
  })

  it('are the rows of config/routes.json, row for row', () => {
    const fromFeatures = [...rowsByFeature.values()].flat()
    const byPath = (rows: readonly RouteRow[]) => new Map(rows.map((row) => [row.path, row]))
    expect(fromFeatures).toHaveLength(new Set(fromFeatures.map((row) => row.path)).size)
    expect(byPath(ROUTE_ROWS)).toEqual(byPath(fromFeatures))
  })
})
