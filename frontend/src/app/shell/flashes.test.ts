import { describe, expect, it } from 'vitest'
import { addFlash, removeFlash } from './flashes'

describe('flash notifications', () => {
  it('dismiss after 10 s by default', () => {
    const [flash] = addFlash([], { type: 'success', translation: 'account.flash_email_consent_updated' }, 1)
    expect(flash).toMatchObject({ id: 1, dismissAfter: 10000 })
  })

  it('keep their own dismissAfter', () => {
    expect(addFlash([], { type: 'info', message: 'x', dismissAfter: 3000 }, 1)[0]!.dismissAfter).toBe(3000)
  })

  it('suppress a duplicate while the first shows', () => {
    const once = addFlash([], { type: 'error', translation: 'video_unlock_modal.error' }, 1)
    const twice = addFlash(once, { type: 'error', translation: 'video_unlock_modal.error' }, 2)
    expect(twice).toBe(once)
  })

  it('are different when type, key, message or values differ', () => {
    let shown = addFlash([], { type: 'error', translation: 'video_unlock_modal.error' }, 1)
    shown = addFlash(shown, { type: 'success', translation: 'video_unlock_modal.error' }, 2)
    shown = addFlash(shown, { type: 'error', message: 'other' }, 3)
    shown = addFlash(shown, { type: 'error', translation: 'download.quota_reached', values: { max: 20, count: 2 } }, 4)
    shown = addFlash(shown, { type: 'error', translation: 'download.quota_reached', values: { max: 20, count: 3 } }, 5)
    expect(shown.map((flash) => flash.id)).toEqual([1, 2, 3, 4, 5])
  })

  it('may show again once dismissed', () => {
    const shown = addFlash([], { type: 'error', message: 'x' }, 1)
    const again = addFlash(removeFlash(shown, 1), { type: 'error', message: 'x' }, 2)
    expect(again.map((flash) => flash.id)).toEqual([2])
  })
})
