import { describe, expect, it } from 'vitest'
import {
  ACCOUNT_CREATION_MAX_TRIES,
  ACCOUNT_CREATION_POLL_MS,
  autologinHref,
  nextAccountCreationStep,
} from './accountCreation'

describe('account creation polling', () => {
  it('asks again every 5 s while the account is not made', () => {
    expect(nextAccountCreationStep({ isWelcome: false, isTrial: false }, 1)).toEqual({
      kind: 'wait',
      afterMs: 5000,
      tries: 1,
    })
    expect(ACCOUNT_CREATION_POLL_MS).toBe(5000)
  })

  it('times out after 24 answers that are not welcome', () => {
    let tries = 0
    let step = nextAccountCreationStep({ isWelcome: false, isTrial: false }, ++tries)
    while (step.kind === 'wait') step = nextAccountCreationStep({ isWelcome: false, isTrial: false }, ++tries)
    expect(tries).toBe(ACCOUNT_CREATION_MAX_TRIES)
    expect(tries).toBe(24)
    expect(step).toEqual({ kind: 'timedOut', error: 'Account creation timed out' })
  })

  it('welcomes a member and sends a trial on to the upgrade page, with the autologin token', () => {
    expect(nextAccountCreationStep({ isWelcome: true, isTrial: false, autologinId: 'tok' }, 3)).toEqual({
      kind: 'welcome',
      autologinId: 'tok',
      usernameLost: false,
    })
    expect(nextAccountCreationStep({ isWelcome: true, isTrial: true, autologinId: 'tok' }, 1)).toEqual({
      kind: 'upgrade',
      autologinId: 'tok',
    })
    expect(nextAccountCreationStep({ isWelcome: true, isTrial: false, autologinId: '' }, 24)).toEqual({
      kind: 'welcome',
      autologinId: null,
      usernameLost: false,
    })
  })

  it('keeps a member whose username was taken meanwhile on the welcome page to choose another, trial or not', () => {
    for (const isTrial of [false, true]) {
      expect(nextAccountCreationStep({ isWelcome: true, isTrial, autologinId: 'tok', usernameLost: true }, 1)).toEqual({
        kind: 'welcome',
        autologinId: 'tok',
        usernameLost: true,
      })
    }
  })

  it('signs in through home with the single-use token', () => {
    expect(autologinHref('a b')).toBe('/?al_token=a+b')
    expect(autologinHref('t', { fatr: 'true' })).toBe('/?al_token=t&fatr=true')
  })
})
