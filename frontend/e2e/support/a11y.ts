// axe-core on what a journey's page shows now: WCAG 2.0, 2.1 and 2.2, levels A and AA. A serious or critical
// violation fails the journey, with each rule, its impact and the elements it found; every violation, whatever its
// impact, is also appended to e2e-artifacts/a11y.jsonl (one line per screen), the audit's record of a run.
import { AxeBuilder } from '@axe-core/playwright'
import { appendFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { ARTIFACTS_DIR } from './browser'

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
const FAILING_IMPACTS = new Set(['serious', 'critical'])

export interface Violation {
  id: string
  impact: string
  help: string
  targets: string[]
}

/** The rule, its impact, what it asks, and each element's selector: enough to find it without rerunning. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations
    .map(({ id, impact, help, targets }) => `${id} (${impact}): ${help}\n${targets.map((target) => `    ${target}`).join('\n')}`)
    .join('\n')
}

/**
 * Runs axe on the page and throws when it finds a serious or critical violation. `label` names the screen (and the
 * brand and width, when they vary) in the failure and the record. E2E_A11Y=report records without failing: only for
 * counting what an older build violates, never in CI.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()
  const violations: Violation[] = results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
  }))
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  appendFileSync(
    join(ARTIFACTS_DIR, 'a11y.jsonl'),
    `${JSON.stringify({ label, url: page.url(), width: page.viewportSize()?.width, violations })}\n`,
  )
  const failing = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact))
  if (failing.length > 0 && process.env.E2E_A11Y !== 'report') {
    throw new Error(`${label} (${page.url()}): ${failing.length} serious or critical accessibility violations\n${describeViolations(failing)}`)
  }
}
