import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { translateRich } from './rich'
// The account's and the unlocks' copy, which the modules reading these keys bring with them (copy.test.ts).
import '../../features/account/copy'
import '../../features/unlocks/copy'

describe('translateRich', () => {
  it('puts elements in place of their placeholders and keeps the sentence whole', () => {
    const { container } = render(
      <p>{translateRich('account.username.chosen', { username: <strong data-testid="name">ada</strong> })}</p>,
    )
    expect(container.textContent).toBe('Your username is ada. A username is permanent once chosen.')
    expect(container.querySelector('strong')?.textContent).toBe('ada')
  })

  it('interpolates strings and numbers as t does, with the plural form chosen by count', () => {
    const { container } = render(
      <p>{translateRich('unlock_video.free_trial', { title: <strong>Red</strong>, count: 3 })}</p>,
    )
    expect(container.textContent).toBe('Watch Red in full as one of your 3 free videos.')
  })
})
