import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import { cleanup, render, screen, within } from '@testing-library/react'
import { Observable } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { tenantConfig, userView } from '../../../app/routing/testing'
import { SessionProvider } from '../../../app/session/SessionContext'
import { FlashProvider } from '../../../app/shell/Flash'
import { makeFragmentData } from '../../../gql/fragment-masking'
import { CommentAuthor_CommentFragmentDoc, type Badge, type CommentAuthor_CommentFragment, type UserType } from '../../../gql/graphql'
import { CommentAuthor, cssName } from './CommentAuthor'
import { Comments } from './Comments'

afterEach(cleanup)

const author = (userType: UserType, badges: Badge[] = [], displayName: string | null = null) => ({
  __typename: 'CommentAuthor' as const,
  displayName,
  userType,
  badges,
})

const authored = (data: Omit<CommentAuthor_CommentFragment, '__typename'>) =>
  makeFragmentData({ __typename: 'Comment', ...data }, CommentAuthor_CommentFragmentDoc)

describe('a comment’s author', () => {
  it.each([
    ['admin', 'Admin', 'comment-author--admin'],
    ['moderator', 'Moderator', 'comment-author--moderator'],
    ['member', 'Member', 'comment-author--member'],
    ['trial', 'Trial', 'comment-author--trial'],
    ['pornPortal', 'Pay-per-video', 'comment-author--porn-portal'],
    ['expired', 'Former member', 'comment-author--expired'],
  ] as const)('a %s user has their own class and says so in words', (userType, words, className) => {
    render(<CommentAuthor comment={authored({ authorName: 'jane', author: author(userType) })} />)
    const name = screen.getByText('jane')
    const shown = name.closest('.comment-author')!
    expect(shown.classList.contains(className)).toBe(true)
    expect(within(shown as HTMLElement).getByText(words).className).toBe('comment-author__type')
  })

  it('lists the badges in the profile’s order, each with its class and name', () => {
    render(<CommentAuthor comment={authored({ authorName: 'mod', author: author('moderator', ['gold', 'moderator', 'founder']) })} />)
    const badges = screen.getByRole('list', { name: 'Badges' })
    const items = within(badges).getAllByRole('listitem')
    expect(items.map((item) => item.textContent)).toEqual(['Gold', 'Moderator', 'Founder'])
    expect(items.map((item) => item.className)).toEqual(['badge badge--gold', 'badge badge--moderator', 'badge badge--founder'])
  })

  it('shows no badge list without badges, and a plain name when the author is unknown', () => {
    render(<CommentAuthor comment={authored({ authorName: 'new', author: author('member') })} />)
    expect(screen.queryByRole('list')).toBeNull()
    cleanup()
    render(<CommentAuthor comment={authored({ authorName: null, author: null })} />)
    const name = screen.getByText('Member')
    expect(name.className).toBe('comment-author')
    expect(document.querySelector('.comment-author__type')).toBeNull()
  })

  it('shows the display name, where set, beside the comment, with the username after it', () => {
    render(<CommentAuthor comment={authored({ authorName: 'jane', author: author('member', [], 'Jane Doe') })} />)
    expect(screen.getByText('Jane Doe').className).toBe('comment-author__name')
    expect(screen.getByText('@jane')).toBeTruthy()
    cleanup()
    render(<CommentAuthor comment={authored({ authorName: 'jane', author: author('member', [], '  ') })} />)
    expect(screen.getByText('jane').className).toBe('comment-author__name')
  })

  it('names classes in kebab case', () => {
    expect(cssName('pornPortal')).toBe('porn-portal')
    expect(cssName('gold')).toBe('gold')
  })
})

type Answer = { data: Record<string, unknown> | null; errors?: Array<{ message: string; path?: Array<string | number> }> }

const comment = (id: string, authorName: string, commentAuthor: ReturnType<typeof author> | null) => ({
  __typename: 'Comment',
  id,
  authorName,
  author: commentAuthor,
  text: `Said by ${authorName}`,
  createdAt: '2026-11-20T12:00:00Z',
  likes: 0,
  dislikes: 0,
  replyCount: 0,
  pinned: false,
})

function renderComments(answer: Answer) {
  const link = new ApolloLink(
    () =>
      new Observable((observer) => {
        observer.next(answer)
        observer.complete()
      }),
  )
  const client = new ApolloClient({ link, cache: new InMemoryCache() })
  render(
    <ApolloProvider client={client}>
      <SessionProvider session={{ tenant: tenantConfig(), user: userView(), isMembersArea: false }}>
        <FlashProvider>
          <Comments videoId="video-1" commentCount={2} />
        </FlashProvider>
      </SessionProvider>
    </ApolloProvider>,
  )
}

const page = (comments: unknown[]) => ({
  comments: { __typename: 'CommentPage', totalCount: comments.length, nextCursor: null, comments },
})

describe('the comment list', () => {
  it('shows each author’s type and badges beside their name', async () => {
    renderComments({
      data: page([
        comment('c-1', 'mod', author('moderator', ['gold', 'moderator'])),
        comment('c-2', 'jane', author('member', ['bronze'])),
      ]),
    })
    const moderator = (await screen.findByText('mod')).closest('.comment')! as HTMLElement
    expect(moderator.querySelector('.comment-author--moderator')).not.toBeNull()
    expect(within(moderator).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Gold', 'Moderator'])
    const member = screen.getByText('jane').closest('.comment')! as HTMLElement
    expect(within(member).getByText('Member').className).toBe('comment-author__type')
    expect(within(member).getByText('Bronze').className).toBe('badge badge--bronze')
  })

  it('still shows the comments when the authors’ badges could not be loaded', async () => {
    renderComments({
      data: page([comment('c-1', 'mod', null), comment('c-2', 'jane', null)]),
      errors: [{ message: 'The profile service is unavailable', path: ['comments', 'comments', 0, 'author'] }],
    })
    expect(await screen.findByText('Said by mod')).toBeTruthy()
    expect(screen.getByText('Said by jane')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(document.querySelector('.comment-author__type')).toBeNull()
  })

  it('says so when the comments themselves could not be loaded', async () => {
    renderComments({ data: null, errors: [{ message: 'The catalog is unavailable' }] })
    expect((await screen.findByRole('alert')).textContent).toBe('Comments could not be loaded.')
  })
})
