import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorReport, errorReportingFor, gatewayReporting, loggingOnly } from './errorReporting'
import { ChunkLoadError } from './pageCode'

afterEach(() => vi.restoreAllMocks())

describe('error reporting (product.md, "Route errors and the error screen")', () => {
  it('with reporting on, sends the error to the gateway under a report id of its own and answers that id', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetch = vi.fn().mockResolvedValue(new Response(null, { status: 204 }))
    const reporting = gatewayReporting({ fetch, newId: () => 'report-1', currentPath: () => '/deals' })
    expect(reporting.report(new Error('Outgoing upsell - Confirmation link is missing'))).toBe('report-1')
    expect(fetch).toHaveBeenCalledTimes(1)
    const [path, init] = fetch.mock.calls[0]!
    expect(path).toBe('/api/analytics/events')
    expect(init.method).toBe('POST')
    expect(init.headers).toMatchObject({ 'x-correlation-id': 'report-1', 'x-paysite-csrf': '1', 'content-type': 'application/json' })
    expect(JSON.parse(init.body)).toEqual({
      event: 'error',
      label: 'Error 500',
      message: 'Outgoing upsell - Confirmation link is missing',
      path: '/deals',
    })
  })

  it('names the page a loader failed on, and a chunk error keeps its code', () => {
    const body = errorReport(new ChunkLoadError('3', 'missing', { css: true }), '/videos')
    expect(body).toMatchObject({ message: 'Loading chunk 3 failed', code: 'CSS_CHUNK_LOAD_FAILED', path: '/videos' })
  })

  it('keeps a message printable and short, as the gateway takes it', () => {
    const body = errorReport(new Error(`a\nb${'x'.repeat(600)}`), '/')
    expect(body.message.startsWith('a b')).toBe(true)
    expect(body.message.length).toBe(500)
    expect(errorReport('', '/').message).toBe('Unknown error')
  })

  it('a failed send never throws', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const fetch = vi.fn().mockRejectedValue(new Error('offline'))
    expect(gatewayReporting({ fetch, newId: () => 'r' }).report(new Error('x'), '/')).toBe('r')
  })

  it('"Fill a report" goes to the support page with the report id', () => {
    const goTo = vi.fn()
    gatewayReporting({ goTo }).openReportDialog('report-1')
    expect(goTo).toHaveBeenCalledWith('/support?errorReportId=report-1')
  })

  it('with reporting off, writes the error to the console and answers no report id', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const reporting = errorReportingFor(false)
    expect(reporting).toBe(loggingOnly)
    const error = new Error('boom')
    expect(reporting.report(error)).toBeUndefined()
    expect(warn).toHaveBeenCalledWith('page error', error)
  })
})
