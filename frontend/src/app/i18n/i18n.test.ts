import { describe, expect, it } from 'vitest'
import { createTranslator, isTranslationKey, t, translate } from '.'
// A screen's copy arrives with the modules that read it (copy.test.ts); these tests read it without them.
import '../../features/account/copy'
import '../../features/gems/copy'
import './copy/shared'
import '../../features/subscription/copy'
import '../../features/unlocks/copy'

describe('translations', () => {
  it.each([
    ['video_unlock_modal.error', 'Failed to unlock the video. Please try again later.'],
    ['error_page.text', 'Something went wrong! We are working to fix this as soon as possible.'],
    ['rating.overall_first', 'Oops! Please leave your overall rating first to continue'],
    ['vip_modal.EMAIL_ALREADY_EXISTS', 'This email already exists. Please choose another one.'],
  ] as const)('%s has the spec’s copy', (key, copy) => {
    expect(t(key)).toBe(copy)
  })

  it.each([
    'account.flash_unknown_error',
    'account.flash_email_consent_updated',
    'account.update_credit_card_error',
    'unlock_channel_modal.failed_to_load_balance',
    'purchase_membership_modal.payment_failed',
    'reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed',
    'subscription_status_modal.polling_failed',
    'deviceChallenge.approved',
    'deviceChallenge.blocked',
    'notification.upgradesuccess',
    'notification.upgradedenial',
  ])('the flash key %s exists', (key) => {
    expect(isTranslationKey(key)).toBe(true)
  })

  it('interpolates values', () => {
    expect(t('download.quota_reached', { max: 20, count: 3 })).toBe('Download limit of 20 exceeded, try again in 3 days.')
  })

  it('does not claim unknown keys', () => {
    expect(isTranslationKey('nope.nothing')).toBe(false)
  })
})

describe('i18next-format resources', () => {
  it('answers the key itself when it is missing, as i18next does', () => {
    expect(translate('nope.nothing')).toBe('nope.nothing')
  })

  it('leaves a placeholder without a value as it is', () => {
    expect(translate('download.quota_reached', { max: 20 })).toBe('Download limit of 20 exceeded, try again in {{count}} days.')
  })

  it('does not answer a branch of keys as a text', () => {
    expect(isTranslationKey('account')).toBe(false)
    expect(translate('account')).toBe('account')
  })
  it('chooses the plural form by count, as i18next does with _one/_other', () => {
    const { translate: tr } = createTranslator({ gems: { left_one: '{{count}} gem left', left_other: '{{count}} gems left' } }, 'en')
    expect(tr('gems.left', { count: 1 })).toBe('1 gem left')
    expect(tr('gems.left', { count: 5 })).toBe('5 gems left')
    expect(tr('gems.left', { count: 0 })).toBe('0 gems left')
  })
})
