// The browser's reading of the server-computed ability rules (a CASL-compatible rule list).
// Route gating only asks "may this user <action> <subject type>", so conditions and fields are not evaluated:
// like CASL's can(action, SubjectType), a conditional rule counts as a grant.

export interface AbilityRule {
  action: string | readonly string[]
  subject: string | readonly string[]
  inverted?: boolean
  conditions?: unknown
  fields?: unknown
}

const matches = (value: string | readonly string[], wanted: string, wildcard: string): boolean =>
  (typeof value === 'string' ? [value] : value).some((item) => item === wanted || item === wildcard)

/** Later rules take precedence over earlier ones, as in CASL; an inverted rule without conditions forbids. */
export function abilityFromRules(rules: readonly AbilityRule[]): (action: string, subject: string) => boolean {
  return (action, subject) => {
    for (let index = rules.length - 1; index >= 0; index -= 1) {
      const rule = rules[index]!
      if (!matches(rule.action, action, 'manage') || !matches(rule.subject, subject, 'all')) continue
      if (rule.inverted) {
        if (rule.conditions === undefined) return false
        continue
      }
      return true
    }
    return false
  }
}
