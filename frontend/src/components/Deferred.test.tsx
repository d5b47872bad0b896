import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { useLayoutEffect } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Deferred } from './Deferred'

afterEach(cleanup)

describe('Deferred', () => {
  it('commits a placeholder with the page first, then the content in a later pass', async () => {
    const firstCommit: Array<{ placeholder: HTMLElement | null; content: boolean }> = []
    function FirstCommit() {
      useLayoutEffect(() => {
        firstCommit.push({
          placeholder: document.querySelector<HTMLElement>('.deferred-placeholder'),
          content: document.body.textContent?.includes('later part') ?? false,
        })
      }, [])
      return <h1>first part</h1>
    }
    await act(async () => {
      render(
        <main>
          <FirstCommit />
          <Deferred minHeight="50vh">
            <p>later part</p>
          </Deferred>
        </main>,
      )
    })
    expect(firstCommit).toHaveLength(1)
    expect(firstCommit[0]!.content).toBe(false)
    expect(firstCommit[0]!.placeholder?.style.minHeight).toBe('50vh')
    expect(firstCommit[0]!.placeholder?.getAttribute('aria-hidden')).toBe('true')
    // Then, after the next frame, the content in place of the placeholder.
    await waitFor(() => expect(screen.getByText('later part')).toBeTruthy())
    expect(document.querySelector('.deferred-placeholder')).toBeNull()
  })
})
