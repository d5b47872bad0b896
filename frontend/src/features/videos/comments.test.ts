import { CombinedGraphQLErrors } from '@apollo/client'
import { describe, expect, it } from 'vitest'
import { draftKey, readDraft, voteErrorMessage, writeDraft } from './comments'

const refused = (code: string, message = code) =>
  new CombinedGraphQLErrors({ data: null, errors: [{ message, extensions: { code } }] })

class MemoryStorage {
  items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

describe('a vote on a comment', () => {
  it("says 'already liked' and 'already disliked' for a repeat vote (product.md, 'Comments, ratings and favourites')", () => {
    expect(voteErrorMessage(refused('ALREADY_LIKED'))).toBe('You have already liked this comment')
    expect(voteErrorMessage(refused('ALREADY_DISLIKED'))).toBe('You have already disliked this comment')
    expect(voteErrorMessage(refused('INTERNAL'))).toBe('Failed to vote on the comment. Please try again later.')
  })
})

describe('a comment draft', () => {
  it('is kept per video and per replied comment, and forgotten once empty', () => {
    const storage = new MemoryStorage()
    const video = draftKey({ videoId: 'v1' })
    const reply = draftKey({ commentId: 'c1' })
    expect(video).not.toBe(reply)
    writeDraft(storage, video, 'half a thought')
    expect(readDraft(storage, video)).toBe('half a thought')
    expect(readDraft(storage, reply)).toBe('')
    writeDraft(storage, video, '')
    expect(storage.items.size).toBe(0)
  })

  it('survives a storage that refuses', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('full')
      },
      removeItem: () => undefined,
    }
    expect(readDraft(broken, 'k')).toBe('')
    expect(() => writeDraft(broken, 'k', 'x')).not.toThrow()
  })
})
