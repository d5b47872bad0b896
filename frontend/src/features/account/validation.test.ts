import { describe, expect, it } from 'vitest'
import {
  emailConsentText,
  emailConsentVariant,
  emailFieldError,
  isValidEmail,
  isValidPassword,
  isValidUsername,
  PASSWORD_RULE_MESSAGE,
  vipErrorMessage,
  vipFormErrors,
} from './validation'

describe('the e-mail rule', () => {
  it('takes 6 to 254 characters, a local part of at most 64 and labels of at most 63', () => {
    expect(isValidEmail('a@b.co')).toBe(true)
    expect(isValidEmail('a@b.c')).toBe(false)
    expect(isValidEmail(`${'a'.repeat(64)}@example.com`)).toBe(true)
    expect(isValidEmail(`${'a'.repeat(65)}@example.com`)).toBe(false)
    expect(isValidEmail(`me@${'a'.repeat(63)}.com`)).toBe(true)
    expect(isValidEmail(`me@${'a'.repeat(64)}.com`)).toBe(false)
    expect(isValidEmail(`${'a'.repeat(60)}@${Array(4).fill('b'.repeat(60)).join('.')}.com`)).toBe(false)
  })

  it('wants a local part ending in a letter or digit and a top-level domain of 2+ letters, except on the test domains', () => {
    expect(isValidEmail('me.@example.com')).toBe(false)
    expect(isValidEmail('me@example.c0m')).toBe(false)
    expect(isValidEmail('me.@paysite.test')).toBe(true)
    expect(isValidEmail('no-at-sign.com')).toBe(false)
  })

  it('checks on blur and lets an empty field be', () => {
    expect(emailFieldError('')).toBeNull()
    expect(emailFieldError('nope')).toBe('Invalid email address.')
  })
})

describe('passwords and usernames', () => {
  it('passwords are 8 to 32 letters and numbers', () => {
    expect(isValidPassword('abcd1234')).toBe(true)
    expect(isValidPassword('abc1234')).toBe(false)
    expect(isValidPassword('a'.repeat(32))).toBe(true)
    expect(isValidPassword('a'.repeat(33))).toBe(false)
    expect(isValidPassword('abcd 1234')).toBe(false)
    expect(isValidPassword('abcd-1234')).toBe(false)
  })

  it('usernames are 3 to 20 lower-case letters and numbers', () => {
    expect(isValidUsername('abc')).toBe(true)
    expect(isValidUsername('ab')).toBe(false)
    expect(isValidUsername('Abc')).toBe(false)
    expect(isValidUsername('a'.repeat(21))).toBe(false)
  })
})

describe('the VIP form', () => {
  it('refuses the placeholder domain and a bad password with the spec’s messages', () => {
    expect(vipFormErrors('vip@vip.paysite.test', 'Secret123')).toEqual({ email: 'Invalid email address.', password: null })
    expect(vipFormErrors('  Me@Example.COM ', 'short')).toEqual({ email: null, password: PASSWORD_RULE_MESSAGE })
    expect(vipFormErrors('me@example.com', 'Secret123')).toEqual({ email: null, password: null })
  })

  it('says what each answer code means, and sends the rest to support', () => {
    expect(vipErrorMessage('EMAIL_ALREADY_EXISTS')).toEqual({
      message: 'This email already exists. Please choose another one.',
      support: false,
    })
    expect(vipErrorMessage('INVALID_EMAIL').message).toBe('Email is not valid.')
    expect(vipErrorMessage('INVALID_PASSWORD').message).toBe(PASSWORD_RULE_MESSAGE)
    expect(vipErrorMessage('SERVICE_UNAVAILABLE')).toEqual({
      message: 'Failed to update your credentials. Please contact customer support.',
      support: true,
    })
  })
})

describe('the e-mail consent prompt', () => {
  it('has a guest variant (18+, terms, privacy, marketing) and a tandem one (18+, terms, privacy)', () => {
    expect(emailConsentVariant({ isGuest: true, isTandem: true })).toBe('guest')
    expect(emailConsentVariant({ isGuest: false, isTandem: true })).toBe('tandem')
    expect(emailConsentText('guest')).toMatch(/18 years.*Terms.*Privacy.*marketing/)
    expect(emailConsentText('tandem')).toMatch(/18 years.*Terms.*Privacy/)
    expect(emailConsentText('tandem')).not.toMatch(/marketing/)
  })
})
