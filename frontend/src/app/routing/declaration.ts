// What a feature declares for each of its routes: the path (a row of config/routes.json, which the feature's
// routes/rows.json holds), the load that runs the row's steps and then the rule (table.ts `guarded`), and the lazily
// loaded screen. The app's route list (app/routes.ts) is the features' declarations put together.
import type { ComponentType } from 'react'
import type { RouteInput } from './context'
import type { RouteOutcome } from './outcome'

export type RouteLoad<Services> = ((
  input: RouteInput,
  services: Services,
  signal: AbortSignal,
) => RouteOutcome<unknown> | Promise<RouteOutcome<unknown>>) & {
  /** The row of config/routes.json whose steps the load runs first (table.ts `guarded`). */
  routePath: string
}

export interface LazyScreen {
  /** Names the chunk in 'Loading chunk N failed'. */
  chunk: string
  load: () => Promise<ComponentType>
}

/** A route of the app; `Services` are the calls a load may make besides its pure rule (app/services.ts). */
export interface AppRoute<Services> {
  path: string
  load: RouteLoad<Services>
  /** Absent for routes that never render: their rule always redirects or answers not-found. */
  screen?: LazyScreen
}

/** A lazy screen: the module's loader and the component picked from it. */
export function screen<M>(chunk: string, load: () => Promise<M>, pick: (module: M) => ComponentType): LazyScreen {
  return { chunk, load: () => load().then(pick) }
}
