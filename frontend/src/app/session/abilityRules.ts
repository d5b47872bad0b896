// The server-computed ability rules (product.md, "Roles and abilities") as CASL's raw rule list, and the one question the
// shell and the route loaders ask of them: "may this user <action> <subject type>". That question needs no
// condition matching, so it is answered here without CASL, which stays out of the first page's JavaScript; components
// that ask about a subject instance build the full CASL ability (ability.ts) in their lazily loaded code. A test
// holds the two to the same answers.

export interface AbilityRule {
  action: string | string[]
  subject: string | string[]
  conditions?: Record<string, unknown>
  fields?: string | string[]
  inverted?: boolean
  reason?: string
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null
const isNames = (value: unknown): boolean =>
  typeof value === 'string' || (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string'))

/**
 * A rule the browser can read: action and subject names, conditions (when present) an object. Anything else is
 * dropped: for a grant that hides what the server would refuse anyway; for an inverted rule the server still
 * refuses the action, so the browser errs only on what it shows.
 */
export function readableRules(rules: unknown): AbilityRule[] {
  if (!Array.isArray(rules)) return []
  return rules.filter(
    (rule): rule is AbilityRule =>
      isObject(rule) &&
      isNames(rule.action) &&
      isNames(rule.subject) &&
      (rule.conditions === undefined || isObject(rule.conditions)) &&
      (rule.fields === undefined || isNames(rule.fields)),
  )
}

const names = (value: string | readonly string[]) => (typeof value === 'string' ? [value] : value)

/**
 * CASL's can(action, SubjectType): later rules take precedence; 'manage' and 'all' are wildcards; a conditional or
 * field-limited grant counts as a grant, while a conditional or field-limited inverted rule does not forbid the
 * whole type.
 */
export function canOnType(rules: readonly AbilityRule[]): (action: string, subjectType: string) => boolean {
  return (action, subjectType) => {
    for (let index = rules.length - 1; index >= 0; index -= 1) {
      const rule = rules[index]!
      if (!names(rule.action).some((item) => item === action || item === 'manage')) continue
      if (!names(rule.subject).some((item) => item === subjectType || item === 'all')) continue
      if (rule.inverted && (rule.conditions !== undefined || rule.fields !== undefined)) continue
      return !rule.inverted
    }
    return false
  }
}
