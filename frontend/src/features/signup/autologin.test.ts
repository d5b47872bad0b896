// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest'
import { tenantConfig } from '../../app/routing/testing'
import { signInWithAutologin } from './accountCreation'

function page(isAuthenticated: boolean): string {
  const bootstrap = { tenant: tenantConfig(), user: { isAuthenticated, abilities: [], profile: null, welcome: {} }, isMembersArea: false }
  return `<!doctype html><html><head><script id="paysite-bootstrap" type="application/json">${JSON.stringify(bootstrap)}</script></head><body></body></html>`
}

describe('the welcome page signs in with its autologin token', () => {
  it('redeems the token once and answers the signed-in page session', async () => {
    const fetchPage = vi.fn(async () => new Response(page(true), { status: 200, headers: { 'content-type': 'text/html' } }))
    const [first, second] = await Promise.all([signInWithAutologin('tok-1', fetchPage), signInWithAutologin('tok-1', fetchPage)])
    expect(fetchPage).toHaveBeenCalledTimes(1)
    expect(fetchPage.mock.calls[0]).toEqual(['/?al_token=tok-1', { credentials: 'same-origin', headers: { accept: 'text/html' } }])
    expect(first?.user.isAuthenticated).toBe(true)
    expect(second).toBe(first)
  })

  it('answers null when the token was refused (home as a visitor) or the page failed', async () => {
    await expect(signInWithAutologin('tok-2', async () => new Response(page(false)))).resolves.toBeNull()
    await expect(signInWithAutologin('tok-3', async () => new Response('', { status: 503 }))).resolves.toBeNull()
    await expect(signInWithAutologin('tok-4', async () => Promise.reject(new Error('offline')))).resolves.toBeNull()
  })
})
