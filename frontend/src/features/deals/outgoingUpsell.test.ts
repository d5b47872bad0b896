import { describe, expect, it } from 'vitest'
import type { OutgoingUpsellData } from './routes/rules'
import {
  confirmationLinkFor,
  isConfirmed,
  outgoingUpsellStep,
  outgoingUpsellVariables,
  upsellResultStep,
  UPSELL_TRACKING_COOKIES,
} from './outgoingUpsell'

const query: OutgoingUpsellData = {
  epochUpsellId: '4201',
  segpayUpsellId: '4202',
  rgUpsellId: '4203',
  tourLinkCode: 'https://sandbox-cams.example.com/tour',
  memberLink: 'https://sandbox-cams.example.com/members',
  gasCid: 'click-1',
  confirmed: null,
}

const modal = {
  title: 'Sandbox Cams Premium',
  description: 'Unlimited live shows.',
  component: 'ConfirmOutgoingUpsell',
  price: { initial: '1.00', recurring: '29.95' },
}

describe('the outgoing one-click upsell', () => {
  it('asks for the confirmation step until the member has confirmed', () => {
    expect(outgoingUpsellVariables(query)).toEqual({
      epochUpsellId: '4201',
      segpayUpsellId: '4202',
      rgUpsellId: '4203',
      fallbackUrl: 'https://sandbox-cams.example.com/tour',
      memberLink: 'https://sandbox-cams.example.com/members',
      clickId: 'click-1',
      confirmationRequired: true,
    })
    expect(outgoingUpsellVariables({ ...query, confirmed: '1' }).confirmationRequired).toBe(false)
    expect(outgoingUpsellVariables({ ...query, confirmed: 'TRUE' }).confirmationRequired).toBe(false)
    expect(isConfirmed('0')).toBe(false)
    expect(isConfirmed('')).toBe(false)
  })

  it('sends a tour link code that is not a link as no fallback', () => {
    expect(outgoingUpsellVariables({ ...query, tourLinkCode: 'ABC123' }).fallbackUrl).toBeNull()
    expect(outgoingUpsellVariables({ ...query, tourLinkCode: 'javascript:alert(1)' }).fallbackUrl).toBeNull()
    expect(outgoingUpsellVariables({ ...query, tourLinkCode: '/deals' }).fallbackUrl).toBe('/deals')
  })

  it('comes back to the same page with confirmed=1 from the modal', () => {
    expect(confirmationLinkFor('/oneclick/outgoing-upsell', '?rg_upsellid=4203&member_link=x')).toBe(
      '/oneclick/outgoing-upsell?rg_upsellid=4203&member_link=x&confirmed=1',
    )
    expect(confirmationLinkFor('/oneclick/outgoing-upsell', '?confirmed=0')).toBe('/oneclick/outgoing-upsell?confirmed=1')
  })

  it('opens the confirmation modal with its props, then leaves for the member link or the fallback', () => {
    const link = '/oneclick/outgoing-upsell?confirmed=1'
    expect(
      outgoingUpsellStep({ success: false, redirectUrl: null, redirectToConfirmationStep: true, confirmationModal: modal }, link),
    ).toEqual({
      kind: 'confirm',
      modalProps: {
        title: 'Sandbox Cams Premium',
        confirmationTitle: 'Sandbox Cams Premium',
        description: 'Unlimited live shows.',
        component: 'ConfirmOutgoingUpsell',
        price: { initial: '1.00', recurring: '29.95' },
        confirmationLink: link,
      },
    })
    expect(
      outgoingUpsellStep({ success: true, redirectUrl: 'https://partner.test/in', redirectToConfirmationStep: false, confirmationModal: null }, link),
    ).toEqual({ kind: 'leave', url: 'https://partner.test/in', success: true })
    expect(
      outgoingUpsellStep({ success: false, redirectUrl: '/deals', redirectToConfirmationStep: false, confirmationModal: null }, link),
    ).toEqual({ kind: 'leave', url: '/deals', success: false })
    expect(
      outgoingUpsellStep({ success: false, redirectUrl: null, redirectToConfirmationStep: false, confirmationModal: null }, link),
    ).toEqual({ kind: 'denied' })
    expect(
      outgoingUpsellStep({ success: false, redirectUrl: 'javascript:alert(1)', redirectToConfirmationStep: false, confirmationModal: null }, link),
    ).toEqual({ kind: 'denied' })
  })
})

describe('the one-click upsell result pages', () => {
  it('set the success or fallback cookie to the redirectUrl for one day', () => {
    expect(upsellResultStep(UPSELL_TRACKING_COOKIES.success, { redirectUrl: 'https://partner.test/in' })).toEqual({
      cookie: { name: 'outgoing_upsell_oneclick_success', value: 'https://partner.test/in', maxAgeSeconds: 86400 },
      url: 'https://partner.test/in',
    })
    expect(upsellResultStep(UPSELL_TRACKING_COOKIES.failure, { redirectUrl: '/deals' })?.cookie.name).toBe(
      'outgoing_upsell_oneclick_fallback',
    )
  })

  it('set nothing without a redirectUrl', () => {
    expect(upsellResultStep(UPSELL_TRACKING_COOKIES.success, { redirectUrl: null })).toBeNull()
    expect(upsellResultStep(UPSELL_TRACKING_COOKIES.success, null)).toBeNull()
  })
})
