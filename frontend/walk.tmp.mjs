import { chromium } from 'playwright-core'
import AxeBuilder from '@axe-core/playwright'
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'] })
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
const page = await ctx.newPage()
for (const brand of ['vixen', 'tushy']) {
  await page.goto(`http://${brand}.localhost:8090/videos`, { waitUntil: 'networkidle' })
  const r = await new AxeBuilder({ page }).withRules(['heading-order', 'page-has-heading-one']).analyze()
  console.log(brand, '/videos', JSON.stringify(r.violations.map((v) => [v.id, v.nodes.map((n) => n.html.slice(0, 150))])))
  const headings = await page.$$eval('h1,h2,h3,h4,h5,h6', (hs) => hs.map((h) => h.tagName + ':' + h.textContent.trim().slice(0, 40)))
  console.log(headings.join(' | '))
  const href = await page.locator('main a.video-card__link').first().getAttribute('href')
  await page.goto(`http://${brand}.localhost:8090${href}`, { waitUntil: 'networkidle' })
  const shelf = page.locator('section', { has: page.getByRole('heading', { name: 'More from our sites' }) })
  await shelf.scrollIntoViewIfNeeded().catch(() => console.log('no shelf'))
  await page.waitForTimeout(1500)
  console.log(brand, 'cross cards', await shelf.locator('.video-card').count(), 'imgs', await shelf.locator('.video-card img').count(),
    JSON.stringify(await shelf.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')).slice(0, 8))))
  await shelf.screenshot({ path: `/tmp/shots/${brand}-cross.png` }).catch((e) => console.log(String(e).slice(0, 100)))
}
await browser.close()
