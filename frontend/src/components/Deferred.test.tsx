import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { lazy, useLayoutEffect, type ComponentType } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { afterFirstScreen, Deferred, FIRST_SCREEN_WAIT_MS } from './Deferred'

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

  it('keeps the placeholder, and the content out, while code the later part loads is on its way', async () => {
    let arrive: (module: { default: ComponentType }) => void = () => undefined
    const Later = lazy(() => new Promise<{ default: ComponentType }>((resolve) => (arrive = resolve)))
    await act(async () => {
      render(
        <main>
          <h1>first part</h1>
          <Deferred minHeight="50vh">
            <Later />
            <p>beside the lazy part</p>
          </Deferred>
        </main>,
      )
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByText('beside the lazy part')).toBeNull()
    expect(document.querySelector<HTMLElement>('.deferred-placeholder')?.style.minHeight).toBe('50vh')
    await act(async () => arrive({ default: () => <p>lazy part</p> }))
    await waitFor(() => expect(screen.getByText('lazy part')).toBeTruthy())
    expect(screen.getByText('beside the lazy part')).toBeTruthy()
    expect(document.querySelector('.deferred-placeholder')).toBeNull()
  })

  it('fetches the code of the later part after the first screen, and renders the part once it is in', async () => {
    let arrive: () => void = () => undefined
    const code = vi.fn(() => new Promise<void>((resolve) => (arrive = resolve)))
    let renders = 0
    function Later() {
      renders += 1
      return <p>later part</p>
    }
    await act(async () => {
      render(
        <Deferred code={code}>
          <Later />
        </Deferred>,
      )
    })
    await vi.waitFor(() => expect(code).toHaveBeenCalledTimes(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(renders).toBe(0)
    expect(document.querySelector('.deferred-placeholder')).not.toBeNull()
    await act(async () => arrive())
    await waitFor(() => expect(screen.getByText('later part')).toBeTruthy())
    expect(renders).toBe(1)
    expect(document.querySelector('.deferred-placeholder')).toBeNull()
  })
})

describe('afterFirstScreen', () => {
  afterEach(() => {
    vi.useRealTimers()
    document.body.innerHTML = ''
  })

  function leadingImage(complete: boolean) {
    const image = document.createElement('img')
    image.setAttribute('fetchpriority', 'high')
    Object.defineProperty(image, 'complete', { value: complete })
    document.body.appendChild(image)
    return image
  }

  it('waits, after the paint, for the images the page leads with', async () => {
    const image = leadingImage(false)
    leadingImage(true)
    const called = vi.fn()
    afterFirstScreen(called)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(called).not.toHaveBeenCalled()
    image.dispatchEvent(new Event('load'))
    expect(called).toHaveBeenCalledTimes(1)
  })

  it('goes on when a leading image fails, and at once when there is none', async () => {
    const image = leadingImage(false)
    const called = vi.fn()
    afterFirstScreen(called)
    await new Promise((resolve) => setTimeout(resolve, 50))
    image.dispatchEvent(new Event('error'))
    expect(called).toHaveBeenCalledTimes(1)
    document.body.innerHTML = ''
    const alone = vi.fn()
    afterFirstScreen(alone)
    await vi.waitFor(() => expect(alone).toHaveBeenCalledTimes(1))
  })

  it('never waits longer than the cap for an image that does not come', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] })
    leadingImage(false)
    const called = vi.fn()
    afterFirstScreen(called)
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 100)
    expect(called).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(200)
    expect(called).toHaveBeenCalledTimes(1)
  })

  it('can be cancelled before it fires', async () => {
    const image = leadingImage(false)
    const called = vi.fn()
    const cancel = afterFirstScreen(called)
    await new Promise((resolve) => setTimeout(resolve, 50))
    cancel()
    image.dispatchEvent(new Event('load'))
    expect(called).not.toHaveBeenCalled()
  })
})
