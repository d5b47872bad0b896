import { describe, expect, it } from 'vitest'
import { HttpError, loaderErrorOutcome } from './errors'
import { routeInput } from './testing'

describe('shared loader error handler', () => {
  const input = routeInput('/account?tab=1')

  it('401 goes to the members login with uri, this brand\'s URL of the path and query', () => {
    expect(loaderErrorOutcome(input, new HttpError(401, 'Unauthorized'))).toEqual({
      kind: 'redirect',
      status: 302,
      location: `https://members.tushy.com/oidc/login?uri=${encodeURIComponent('https://www.tushy.com/account?tab=1')}`,
    })
  })

  it('404 goes to e404', () => {
    expect(loaderErrorOutcome(input, new HttpError(404, 'Not Found'))).toEqual({ kind: 'notFound' })
  })

  it('a redirect is followed with its status', () => {
    expect(loaderErrorOutcome(input, new HttpError(301, 'Moved', '/elsewhere'))).toEqual({
      kind: 'redirect',
      status: 301,
      location: '/elsewhere',
    })
  })

  it('anything else is e500 with an error-report id when reporting is on', () => {
    expect(loaderErrorOutcome(input, new Error('boom'), () => 'report-1')).toEqual({
      kind: 'error',
      message: 'boom',
      errorReportId: 'report-1',
    })
  })

  it('anything else is e500 without a report id when reporting is off', () => {
    expect(loaderErrorOutcome(input, 'not an error object')).toEqual({
      kind: 'error',
      message: 'Something went wrong! We are working to fix this as soon as possible.',
    })
  })
})
