import { describe, expect, it, vi } from 'vitest'
import { welcomeCheck } from './welcomeCheck'

const input = { site: 'TUSHY', memberId: '42', hashedMemberId: 'abc' }

function answering(status: number, body: unknown) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
}

describe('welcomeCheck', () => {
  it('posts the query with the CSRF header and returns the autologin id', async () => {
    const fetchImpl = answering(200, { data: { welcomeCheck: { isWelcome: true, autologinId: 'tok' } } })
    expect(await welcomeCheck(input, fetchImpl)).toBe('tok')
    const [path, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit]
    expect(path).toBe('/graphql')
    const headers = init.headers as Record<string, string>
    expect(headers['x-paysite-csrf']).toBe('1')
    expect(headers['content-type']).toBe('application/json')
    expect(JSON.parse(init.body as string).variables).toEqual(input)
  })

  it('is null while the account is not welcome yet, on errors and on a refused request', async () => {
    expect(await welcomeCheck(input, answering(200, { data: { welcomeCheck: { isWelcome: false, autologinId: null } } }))).toBeNull()
    expect(await welcomeCheck(input, answering(200, { data: null, errors: [{ message: 'x' }] }))).toBeNull()
    expect(await welcomeCheck(input, answering(403, {}))).toBeNull()
  })

  it('asks nothing without a member id', async () => {
    const fetchImpl = answering(200, {})
    expect(await welcomeCheck({ ...input, memberId: '' }, fetchImpl)).toBeNull()
    expect(fetchImpl).not.toHaveBeenCalled()
  })
})
