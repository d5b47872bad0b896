// The full CASL ability from the server's rule list, for components that ask about a subject instance, e.g.
// ability.can('play', subject('Video', video)), where $in/$nin conditions apply. Import it from lazily loaded
// code only; type-level questions go through abilityRules.ts.
import { createMongoAbility, subject, type MongoAbility } from '@casl/ability'
import { readableRules } from './abilityRules'

export type AppAbility = MongoAbility

export { subject }

export function buildAbility(rules: unknown): AppAbility {
  return createMongoAbility(readableRules(rules) as Parameters<typeof createMongoAbility>[0])
}
