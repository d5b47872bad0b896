import { describe, expect, it } from 'vitest'
import { isValidSlug } from './slug'

describe('the general slug rule', () => {
  it.each(['a', 'abc', 'video-1', 'a-b-c', '2257', 'x'.repeat(200)])('accepts %s', (slug) => {
    expect(isValidSlug(slug)).toBe(true)
  })

  it.each([
    ['empty', ''],
    ['uppercase', 'Video-One'],
    ['double hyphen', 'video--one'],
    ['leading hyphen', '-video'],
    ['trailing hyphen', 'video-'],
    ['underscore', 'video_one'],
    ['space', 'video one'],
    ['dot', 'video.one'],
    ['slash', 'video/one'],
    ['non-ascii', 'vidéo'],
    ['201 characters', 'x'.repeat(201)],
  ])('rejects a slug with %s', (_, slug) => {
    expect(isValidSlug(slug)).toBe(false)
  })

  it('rejects a missing slug', () => {
    expect(isValidSlug(undefined)).toBe(false)
    expect(isValidSlug(null)).toBe(false)
  })

  it('accepts exactly 200 characters made of hyphen-separated parts', () => {
    const slug = `${'a'.repeat(99)}-${'b'.repeat(100)}`
    expect(slug).toHaveLength(200)
    expect(isValidSlug(slug)).toBe(true)
  })
})
