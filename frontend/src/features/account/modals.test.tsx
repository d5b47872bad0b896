import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConvertVipUser } from './modals/ConvertVipUser'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }))

function renderForm(onConverted = vi.fn()) {
  render(<ConvertVipUser props={{ onConverted }} close={() => undefined} />)
  const email = screen.getByLabelText('E-mail')
  const password = screen.getByLabelText('Password')
  const fill = (e: string, p: string) => {
    fireEvent.change(email, { target: { value: e } })
    fireEvent.change(password, { target: { value: p } })
  }
  return { onConverted, fill, submit: () => fireEvent.submit(password.closest('form')!) }
}

describe('the VIP conversion form', () => {
  it('refuses the placeholder domain and a bad password without asking the server', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    const form = renderForm()
    form.fill('vip@vip.paysite.test', 'abc')
    form.submit()
    expect(await screen.findByText('Invalid email address.')).toBeTruthy()
    expect(screen.getByText('Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.')).toBeTruthy()
    expect(fetch).not.toHaveBeenCalled()
  })

  it.each([
    ['EMAIL_ALREADY_EXISTS', 'This email already exists. Please choose another one.'],
    ['INVALID_EMAIL', 'Email is not valid.'],
    ['INVALID_PASSWORD', 'Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.'],
    ['SERVICE_UNAVAILABLE', 'Failed to update your credentials. Please contact customer support. Contact support'],
  ])('shows the answer %s as the spec says', async (code, message) => {
    vi.stubGlobal('fetch', vi.fn(() => answer(409, { message: code })))
    const form = renderForm()
    form.fill('me@example.com', 'Secret123')
    form.submit()
    expect((await screen.findByRole('alert')).textContent).toBe(message)
    expect(form.onConverted).not.toHaveBeenCalled()
  })

  it('sends the e-mail lower-cased and trimmed, and reloads on success', async () => {
    const fetch = vi.fn(() => answer(200, { success: true }))
    vi.stubGlobal('fetch', fetch)
    const form = renderForm()
    form.fill('  Me@Example.COM ', 'Secret123')
    await act(async () => form.submit())
    expect(JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({
      newEmail: 'me@example.com',
      newPassword: 'Secret123',
    })
    expect(form.onConverted).toHaveBeenCalledOnce()
  })

  it('does not submit again while busy', async () => {
    let resolve: (response: Response) => void = () => undefined
    const fetch = vi.fn(() => new Promise<Response>((done) => (resolve = done)))
    vi.stubGlobal('fetch', fetch)
    const form = renderForm()
    form.fill('me@example.com', 'Secret123')
    await act(async () => form.submit())
    expect(screen.getByRole('button', { name: 'Saving…' }).hasAttribute('disabled')).toBe(true)
    await act(async () => form.submit())
    expect(fetch).toHaveBeenCalledOnce()
    await act(async () => resolve(new Response(JSON.stringify({ message: 'INVALID_EMAIL' }), { status: 400 })))
    expect((await screen.findByRole('alert')).textContent).toBe('Email is not valid.')
  })
})
