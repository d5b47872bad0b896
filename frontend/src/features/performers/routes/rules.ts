// Routes that only send the visitor elsewhere: the 301 permanent moves and /tube2. Their steps in config/routes.json
// always answer; a rule that got past them would be a table without its move.
import { MESSAGES } from '../../../app/routing/constants'
import { failure, type RouteOutcome } from '../../../app/routing/outcome'
import { guarded } from '../../../app/routing/table'

type Move = RouteOutcome<never>

const unreachable = (): Move => failure(MESSAGES.genericError)

/** /models: 301 to the performers list, keeping the query. */
export const modelsMove = guarded('/models', unreachable)

/** /models/{slug}: 301 to /performers/{slug}. */
export const modelMove = guarded('/models/:slug', unreachable)

/** /categories/{slug}: 301 to the search screen with search={slug}. */
export const categoryMove = guarded('/categories/:slug', unreachable)

/** /reels/{uuid?}: 301 to /quickies/{uuid?}. */
export const reelsMove = guarded('/reels/:uuid?', unreachable)

/** /favorites/models: 301 to /favorites/performers (spec README). */
export const favoriteModelsMove = guarded('/favorites/models', unreachable)

/** /tube2: home, keeping the query. */
export const tube2Rule = guarded('/tube2', unreachable)
