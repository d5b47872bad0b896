import { describe, expect, it, vi } from 'vitest'
import { CSS_CHUNK_LOAD_FAILED, ChunkLoadError, isRecoverable, loadPageCode } from './pageCode'

describe('page code loading', () => {
  it('answers the module on the first success', async () => {
    const load = vi.fn().mockResolvedValue({ default: 'screen' })
    await expect(loadPageCode('videos', load)).resolves.toEqual({ default: 'screen' })
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('retries 3 times before giving up', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue('ok')
    await expect(loadPageCode('videos', load)).resolves.toBe('ok')
    expect(load).toHaveBeenCalledTimes(4)
  })

  it("then fails with 'Loading chunk N failed' of type missing", async () => {
    const load = vi.fn().mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'))
    const failure = loadPageCode('videos', load)
    await expect(failure).rejects.toThrow('Loading chunk videos failed')
    await expect(failure).rejects.toMatchObject({ type: 'missing' })
    expect(load).toHaveBeenCalledTimes(4)
  })

  it('a load that never answers times out', async () => {
    const load = () => new Promise<never>(() => {})
    await expect(loadPageCode('home', load, { retries: 1, timeoutMs: 5 })).rejects.toMatchObject({
      name: 'ChunkLoadError',
      type: 'timeout',
    })
  })

  it('uses the 120 s timeout by default', async () => {
    vi.useFakeTimers()
    try {
      const failure = loadPageCode('home', () => new Promise<never>(() => {}), { retries: 0 })
      const settled = vi.fn()
      failure.catch(settled)
      await vi.advanceTimersByTimeAsync(119999)
      expect(settled).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(settled).toHaveBeenCalledWith(expect.objectContaining({ type: 'timeout' }))
    } finally {
      vi.useRealTimers()
    }
  })

  it('chunk failures are not recoverable; other errors are', () => {
    expect(isRecoverable(new ChunkLoadError('x', 'other'))).toBe(false)
    expect(isRecoverable(new Error('boom'))).toBe(true)
  })

  it('a stylesheet that fails to preload ends in CSS_CHUNK_LOAD_FAILED', async () => {
    const load = vi.fn().mockRejectedValue(new Error('Unable to preload CSS for /assets/videos-abc.css'))
    await expect(loadPageCode('videos', load, { retries: 3 })).rejects.toMatchObject({
      message: 'Loading chunk videos failed',
      code: CSS_CHUNK_LOAD_FAILED,
      type: 'other',
    })
    expect(load).toHaveBeenCalledTimes(4)
  })

  it('a script chunk failure carries no CSS code', async () => {
    const load = vi.fn().mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'))
    await expect(loadPageCode('videos', load, { retries: 0 })).rejects.toMatchObject({ code: undefined })
  })
})
