// Favourites routes, and the 301 from the old /favorites/models (rows: ./rows.json).
import { guarded, page, type RouteOutcome, tableOnly } from '../../../app/routing'

/** /favorites */
export const favoritesRule = guarded('/favorites', (): RouteOutcome => page('favorite'))

/** /favorites/videos (authenticated) */
export const favoriteVideosRule = guarded('/favorites/videos', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteVideos', { page: pass.page }),
)

/** /favorites/performers (authenticated) */
export const favoritePerformersRule = guarded('/favorites/performers', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteModels', { page: pass.page }),
)

/** /favorites/channels: the table requires authentication only of the first two favourites lists. */
export const favoriteChannelsRule = guarded('/favorites/channels', (_input, pass): RouteOutcome<{ page: number }> =>
  page('favoriteChannels', { page: pass.page }),
)

/** /favorites/models: 301 to /favorites/performers (spec README). */
export const favoriteModelsMove = tableOnly('/favorites/models')
