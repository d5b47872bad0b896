import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useViewportType, viewportWidth } from './useViewport'

afterEach(cleanup)

function setWidth(width: number, { resize = true } = {}) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width })
  if (resize) window.dispatchEvent(new Event('resize'))
}

function Viewport() {
  return <p>{useViewportType()}</p>
}

describe('the viewport width', () => {
  it('is read from the window once, then kept by the resize event', () => {
    setWidth(1024)
    expect(viewportWidth()).toBe(1024)
    const reads = vi.spyOn(window, 'innerWidth', 'get')
    for (let i = 0; i < 5; i += 1) expect(viewportWidth()).toBe(1024)
    expect(reads).not.toHaveBeenCalled()
    reads.mockReturnValue(390)
    window.dispatchEvent(new Event('resize'))
    expect(viewportWidth()).toBe(390)
  })

  it('renders the new viewport type on a resize', () => {
    setWidth(1200)
    render(<Viewport />)
    expect(screen.getByText('xlarge')).toBeTruthy()
    act(() => setWidth(360))
    expect(screen.getByText('xsmall')).toBeTruthy()
  })
})
