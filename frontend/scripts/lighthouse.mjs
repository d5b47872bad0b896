// Lighthouse benchmark (Performance; the other categories): the home page, the listing (/videos)
// and a video page of a running stack, on each brand asked for, in Lighthouse's default mobile preset (emulated
// phone, simulated slow 4G and 4x CPU slowdown), with Debian's Chromium. It reports all four categories
// (performance, accessibility, best practices, SEO). Targets ("Fast at the edge"): LCP ≤ 1.5 s, TBT ≤ 100 ms, CLS 0 and
// a performance score of 100, each page's median. Exits 1 when one is missed.
//
//   E2E_GATEWAY=http://tushy.localhost:8080 npm run bench:lighthouse [-- --json] [-- --runs 3] [-- --brands vixen,tushy]
//     [-- --before http://tushy.localhost:8081]
//
// --brands defaults to the gateway's own brand; each brand is its host beside the gateway's (<brand>.localhost:port).
// Each page is measured `runs` times (default 3) and the median kept; reports go to e2e-artifacts/lighthouse/.
// --before names a second stack to compare with side by side in the same run (the same binary with a change switched
// off, say PAYSITE_FIRST_SCREEN=false): each run measures its page there, then here, and the table gains the before
// figures and the after/before ratio of LCP. The targets apply to E2E_GATEWAY's pages.
import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const gateway = new URL(process.env.E2E_GATEWAY ?? 'http://tushy.localhost:8080')
const chromePath = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium'
const artifacts = join(fileURLToPath(new URL('..', import.meta.url)), 'e2e-artifacts', 'lighthouse')
const runsArg = process.argv.indexOf('--runs')
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3
const TARGETS = { lcp: 1500, cls: 0, tbt: 100, score: 1 }
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const brandsArg = process.argv.indexOf('--brands')
const gatewayBrand = gateway.hostname.split('.')[0]
const brands = brandsArg > 0 ? process.argv[brandsArg + 1].split(',') : [gatewayBrand]
const beforeArg = process.argv.indexOf('--before')
const before = beforeArg > 0 ? new URL(process.argv[beforeArg + 1]) : null

/** The brand's origin beside a gateway's: its host with the first label swapped (tushy.localhost → vixen.localhost). */
function brandGateway(brand, base = gateway) {
  const url = new URL(base)
  url.hostname = [brand, ...base.hostname.split('.').slice(1)].join('.')
  return url
}

/**
 * A video page to measure: the newest video of the brand, asked of the gateway's GraphQL. Node does not resolve
 * `*.localhost` (Chromium does), so the question goes to the loopback address with the brand's Host header.
 */
async function newestVideoSlug(gateway) {
  const hostname = gateway.hostname === 'localhost' || gateway.hostname.endsWith('.localhost') ? '127.0.0.1' : gateway.hostname
  const payload = JSON.stringify({ query: '{ videos(page: 1, size: 1, order: "newest") { videos { slug } } }' })
  const text = await new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port: gateway.port || 80,
        path: '/graphql',
        method: 'POST',
        headers: {
          host: gateway.host,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-paysite-csrf': '1',
        },
        timeout: 10_000,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => resolve(body))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error('POST /graphql timed out')))
    req.on('error', reject)
    req.end(payload)
  })
  let body
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`no video to measure: ${text.slice(0, 300)}`)
  }
  const slug = body?.data?.videos?.videos?.[0]?.slug
  if (!slug) throw new Error(`no video to measure: ${JSON.stringify(body).slice(0, 300)}`)
  return slug
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** One Lighthouse run of the page, as the figures the table shows. */
async function sample(chrome, name, url, run) {
  const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES })
  const { audits, categories } = result.lhr
  if (result.lhr.runtimeError) throw new Error(`${name}: ${result.lhr.runtimeError.message}`)
  writeFileSync(join(artifacts, `${name}-${run}.json`), result.report)
  return {
    score: categories.performance.score,
    accessibility: categories.accessibility.score,
    bestPractices: categories['best-practices'].score,
    seo: categories.seo.score,
    // What keeps a category under 100 on this run: its failing audits' ids.
    failing: Object.fromEntries(
      CATEGORIES.filter((id) => id !== 'performance').map((id) => [
        id,
        categories[id].auditRefs
          .filter((ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score < 1)
          .map((ref) => ref.id),
      ]),
    ),
    fcp: audits['first-contentful-paint'].numericValue,
    lcp: audits['largest-contentful-paint'].numericValue,
    cls: audits['cumulative-layout-shift'].numericValue,
    tbt: audits['total-blocking-time'].numericValue,
  }
}

/** The medians of a page's samples. */
function summary(name, url, samples) {
  const pick = (key) => median(samples.map((one) => one[key]))
  const range = (key) => [Math.min(...samples.map((one) => one[key])), Math.max(...samples.map((one) => one[key]))]
  return {
    page: name,
    url,
    runs: samples.length,
    score: pick('score'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    seo: pick('seo'),
    failing: samples.at(-1).failing,
    fcp: pick('fcp'),
    lcp: pick('lcp'),
    cls: pick('cls'),
    tbt: pick('tbt'),
    lcpRange: range('lcp'),
    tbtRange: range('tbt'),
  }
}

/** The page measured `runs` times, and when there is a before stack, its twin there in the same runs, before first. */
async function measure(chrome, name, url, beforeUrl) {
  const samples = []
  const beforeSamples = []
  for (let run = 1; run <= runs; run += 1) {
    if (beforeUrl) beforeSamples.push(await sample(chrome, `${name}-before`, beforeUrl, run))
    samples.push(await sample(chrome, name, url, run))
  }
  const after = summary(name, url, samples)
  return beforeUrl ? { ...after, before: summary(`${name}-before`, beforeUrl, beforeSamples) } : after
}

mkdirSync(artifacts, { recursive: true })
const pages = []
for (const brand of brands) {
  const origin = brandGateway(brand)
  const beforeOrigin = before && brandGateway(brand, before)
  const paths = ['/', '/videos', `/videos/${await newestVideoSlug(origin)}`]
  for (const [index, name] of ['home', 'videos', 'video'].entries()) {
    const path = paths[index]
    pages.push([`${brand}-${name}`, new URL(path, origin).toString(), beforeOrigin && new URL(path, beforeOrigin).toString()])
  }
}
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})
// The machine is shared: its load beside the figures says how much to trust TBT in particular.
const loadBefore = loadavg()[0]
const results = []
try {
  for (const [name, url, beforeUrl] of pages) results.push(await measure(chrome, name, url, beforeUrl))
} finally {
  await chrome.kill()
}

const load = { before: loadBefore, after: loadavg()[0] }
const passes = (r) => r.lcp <= TARGETS.lcp && r.cls <= TARGETS.cls && r.tbt <= TARGETS.tbt && r.score >= TARGETS.score
const pass = results.every(passes)
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ preset: 'mobile (Lighthouse default)', targets: TARGETS, results, pass, load }, null, 2))
} else {
  console.log(`Lighthouse ${runs} runs per page, median; mobile preset; Chromium at ${chromePath}`)
  console.log(`load average (1 min): ${load.before.toFixed(2)} before, ${load.after.toFixed(2)} after`)
  console.log('page            perf  a11y  b-p   seo   FCP ms   LCP ms (≤1500)     CLS (=0)   TBT ms (≤100)')
  const percent = (score) => String(Math.round(score * 100)).padStart(5)
  for (const r of results) {
    console.log(
      `${r.page.padEnd(15)} ${percent(r.score)} ${percent(r.accessibility)} ${percent(r.bestPractices)} ${percent(r.seo)} ` +
        `${Math.round(r.fcp).toString().padStart(8)} ` +
        `${Math.round(r.lcp).toString().padStart(16)} ${r.cls.toFixed(3).padStart(12)} ${Math.round(r.tbt).toString().padStart(15)}  ` +
        `${passes(r) ? 'ok' : 'MISSED'}   (runs: LCP ${r.lcpRange.map(Math.round).join('–')} ms, TBT ${r.tbtRange.map(Math.round).join('–')} ms)`,
    )
  }
  if (before) {
    console.log(`before: ${before.origin} (its brands' hosts beside it), measured in the same runs, each page before then after`)
    console.log('page            perf  FCP ms   LCP ms  TBT ms     CLS   →  perf  FCP ms   LCP ms  TBT ms     CLS   LCP after/before')
    for (const r of results) {
      const b = r.before
      const figures = (x) =>
        `${percent(x.score)} ${Math.round(x.fcp).toString().padStart(7)} ${Math.round(x.lcp).toString().padStart(8)} ` +
        `${Math.round(x.tbt).toString().padStart(7)} ${x.cls.toFixed(3).padStart(7)}`
      console.log(`${r.page.padEnd(15)} ${figures(b)}   → ${figures(r)}   ${(r.lcp / b.lcp).toFixed(2).padStart(8)}`)
    }
  }
  for (const r of results) {
    const failing = Object.entries(r.failing).filter(([, ids]) => ids.length > 0)
    if (failing.length > 0) console.log(`${r.page}: ${failing.map(([id, ids]) => `${id}: ${ids.join(', ')}`).join('; ')}`)
  }
}
process.exit(pass ? 0 : 1)
