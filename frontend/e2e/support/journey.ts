// The hooks every journey file shares: one Chromium per file, a fresh visitor context and page per journey, and an
// uncaught exception on the page fails the journey that caused it.
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest'
import { collectPageErrors, launchBrowser, visitorContext } from './browser'

export interface Opened {
  browser: Browser
  context: BrowserContext
  page: Page
}

/** Registers the hooks; `onOpen` hears each journey's browser, context and page before the journey runs. */
export function journeys(onOpen: (opened: Opened) => void): void {
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  let errors: string[] = []

  beforeAll(async () => {
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
  })

  beforeEach(async () => {
    if (!browser) throw new Error('no browser')
    context = await visitorContext(browser)
    const page = await context.newPage()
    errors = collectPageErrors(page)
    onOpen({ browser, context, page })
  })

  afterEach(async () => {
    await context?.close()
    expect(errors.filter((error) => error.startsWith('pageerror'))).toEqual([])
    // The gateway's Content-Security-Policy is on for every journey: a refused script, style, image or request fails
    // the journey that caused it.
    expect(errors.filter((error) => error.includes('Content Security Policy'))).toEqual([])
  })
}
