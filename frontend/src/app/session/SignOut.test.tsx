import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { fakeFetch, json } from '../api/testing'
import { SignOutControls, signOut } from './SignOut'

describe('signing out', () => {
  it('posts /logout as a state change (JSON and the CSRF header), then loads home as a new document', async () => {
    const fake = fakeFetch(json({ loggedOut: true }))
    const goTo = vi.fn()
    await expect(signOut(false, { fetch: fake.fetch, goTo })).resolves.toBe(true)
    const [call] = fake.calls
    expect(call!.method).toBe('POST')
    expect(new URL(call!.url).pathname + new URL(call!.url).search).toBe('/logout')
    expect(call!.headers.get('content-type')).toBe('application/json')
    expect(call!.headers.get('x-paysite-csrf')).toBe('1')
    expect(goTo).toHaveBeenCalledWith('/')
  })

  it('everywhere asks for every session', async () => {
    const fake = fakeFetch(json({ loggedOut: true }))
    await signOut(true, { fetch: fake.fetch, goTo: vi.fn() })
    expect(new URL(fake.calls[0]!.url).search).toBe('?everywhere=true')
  })

  it('stays on the page and says so when the gateway did not sign out', async () => {
    const fake = fakeFetch(json({ error: 'temporarily_unavailable' }, { status: 503 }))
    const goTo = vi.fn()
    render(<SignOutControls deps={{ fetch: fake.fetch, goTo }} />)
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }))
    expect((await screen.findByRole('alert')).textContent).toBe('You could not be signed out just now. Please try again.')
    expect(goTo).not.toHaveBeenCalled()
    await waitFor(() => expect((screen.getByRole('button', { name: 'Sign out' }) as HTMLButtonElement).disabled).toBe(false))
  })
})
