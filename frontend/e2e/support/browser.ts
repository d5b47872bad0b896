// Debian's Chromium through playwright-core: Playwright never downloads a browser on these machines.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { expectAccessible } from './a11y'
import { GATEWAY } from './gateway'

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Git-ignored; kept by CI as the run's artifacts. */
export const ARTIFACTS_DIR = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL('../../e2e-artifacts/', import.meta.url))

/** The two widths every journey is photographed at: the smallest phone of product.md, "Business constants and limits" and a laptop. */
export const VIEWPORTS = {
  mobile: { width: 360, height: 740 },
  desktop: { width: 1440, height: 900 },
} as const

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true })
}

/** A fresh visitor: no cookies, no storage, a desktop viewport until a test says otherwise. */
export async function visitorContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-US' })
  context.setDefaultTimeout(15_000)
  return context
}

/** Errors the page threw or logged: a journey that passes with these is not a pass. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  return errors
}

const safeName = (name: string) => name.replace(/[^a-z0-9-]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()

/**
 * Full-page screenshots of what the page shows now, at 360 px and at 1440 px; the page ends at the width it had.
 * Files: e2e-artifacts/screenshots/<name>-360.png and -1440.png. Every screen and modal a journey photographs is
 * also checked with axe at both widths (the phone's header and menus are other markup): a serious or critical
 * WCAG 2.2 AA violation fails the journey (support/a11y.ts).
 */
export async function screenshotAtBothWidths(page: Page, name: string): Promise<string[]> {
  const dir = join(ARTIFACTS_DIR, 'screenshots')
  mkdirSync(dir, { recursive: true })
  const before = page.viewportSize()
  const files: string[] = []
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport)
    // Let resize listeners (the viewport type, pagination) and images settle before the picture.
    await page.waitForLoadState('networkidle').catch(() => undefined)
    const file = join(dir, `${safeName(name)}-${viewport.width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    files.push(file)
    // Only the product's own pages: the biller sandbox stands in for a third party's payment page (its own port).
    if (new URL(page.url()).port === GATEWAY.port) await expectAccessible(page, `${name} at ${viewport.width} px`)
  }
  if (before) await page.setViewportSize(before)
  return files
}

/** Whether the document is wider than the viewport: a layout that makes a phone scroll sideways. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)
}
