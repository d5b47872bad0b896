// Comments as members and moderators use them (product.md, "Comments, ratings and favourites"):
// a draft kept while typing across a way out and back, like and dislike once with 'already liked' and 'already
// disliked', threaded replies, load more, sort, and the moderators' pin, unpin and remove. On vixen and through the
// shared members host. Screenshots in e2e-artifacts/screenshots.
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { screenshotAtBothWidths, visitorContext } from './support/browser'
import { journeys } from './support/journey'
import { brandOrigin, brandUrl } from './support/gateway'
import { graphql, join, unique } from './support/join'
import { dismissWelcomeModals, SETTLE, signIn } from './support/members'

let browser: Browser
let page: Page

journeys((opened) => {
  ;({ browser, page } = opened)
})

interface ServerComment {
  id: string
  text: string
  likes: number
  dislikes: number
  replyCount: number
  pinned: boolean
  userVote: string | null
}

const COMMENTS =
  'query($v: ID!, $sort: CommentSort!, $after: String) { comments(videoId: $v, sort: $sort, after: $after, size: 10) { totalCount nextCursor comments { id text likes dislikes replyCount pinned userVote } } }'
const REPLIES = 'query($c: ID!) { commentReplies(commentId: $c) { totalCount comments { id text } } }'

async function serverComments(p: Page, videoId: string, sort = 'newest'): Promise<{ totalCount: number; nextCursor: string | null; comments: ServerComment[] }> {
  const body = await graphql<{ data: { comments: { totalCount: number; nextCursor: string | null; comments: ServerComment[] } } }>(p, COMMENTS, { v: videoId, sort })
  return body.data.comments
}

async function videoIdOf(p: Page): Promise<string> {
  const slug = new URL(p.url()).pathname.split('/').pop()!
  const body = await graphql<{ data: { getVideo: { video: { uuid: string } } } }>(p, 'query($s: String!) { getVideo(videoSlug: $s) { video { uuid } } }', { s: slug })
  return body.data.getVideo.video.uuid
}

const flash = (p: Page, text: string) => p.locator('.flashes').getByText(text, { exact: false })

describe('comments', () => {
  it.each([
    ['vixen', 'vixen'],
    ['the members host', 'members'],
  ])('on %s: draft, vote once, reply in a thread, load more, sort, and the moderator’s pin, unpin and remove', async (_, where) => {
    // The writer: a member of their own, joined on the brand (the members host's joins are vixenplus joins), signed
    // in where the journey runs.
    const joinUrl = where === 'members' ? `${brandOrigin('members')}/joinnow?ref=home&elm=header` : brandUrl(where, '/joinnow?ref=home&elm=header')
    const writer = await join(page, joinUrl, 'cm')
    const origin = brandOrigin(writer.brand)

    // The video: the second newest, where the writer has said eleven things already (set up through the API), more
    // than a page of ten.
    // One of the brand's own videos (the combined brand's lists carry every brand's, which its members do not write on).
    await page.goto(`${origin}/videos`, { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const listed = await graphql<{ data: { videos: { videos: { slug: string; site: string }[] } } }>(
      page,
      '{ videos(page: 1, size: 24) { videos { slug site } } }',
    )
    const own = listed.data.videos.videos.filter((v) => v.site === writer.brand)
    expect(own.length).toBeGreaterThan(1)
    await page.goto(`${origin}/videos/${own[1]!.slug}`, { waitUntil: 'networkidle' })
    const videoPath = new URL(page.url()).pathname
    const videoId = await videoIdOf(page)
    for (let n = 0; n < 11; n += 1) {
      const body = await graphql(page, 'mutation($v: ID!, $t: String!) { addComment(videoId: $v, text: $t) { id } }', {
        v: videoId,
        t: `Earlier neutral note ${n} ${unique()}`,
      })
      expect(body.errors ?? []).toEqual([])
    }

    // A draft survives a way out and back.
    await page.goto(`${origin}${videoPath}`, { waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    const text = `A calm thought ${unique()}`
    await page.getByLabel('Add a comment').fill(text.slice(0, 10))
    await page.goto(`${origin}/videos`, { waitUntil: 'networkidle' })
    await page.goBack({ waitUntil: 'networkidle' })
    await dismissWelcomeModals(page)
    await expect.poll(() => page.getByLabel('Add a comment').inputValue(), SETTLE).toBe(text.slice(0, 10))
    await page.getByLabel('Add a comment').fill(text)
    await page.getByRole('button', { name: 'Post', exact: true }).click()
    const mine = page.locator('.comment', { hasText: text }).first()
    await mine.waitFor()
    expect(await page.getByLabel('Add a comment').inputValue()).toBe('')

    // Load more: the first page holds ten, the next the rest.
    const list = page.locator('section.comments > ul.comment-list > li.comment')
    await expect.poll(() => list.count(), SETTLE).toBe(10)
    await page.getByRole('button', { name: 'Load more comments' }).click()
    await expect.poll(() => list.count(), SETTLE).toBe(12)

    // Like once; a second vote is refused with its message (product.md, "Comments, ratings and favourites").
    await mine.getByRole('button', { name: /^Like/ }).click()
    await expect.poll(() => mine.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed'), SETTLE).toBe('true')
    expect(await mine.getByRole('button', { name: /^Like/ }).textContent()).toContain('1')
    await mine.getByRole('button', { name: /^Like/ }).click()
    await flash(page, 'already liked').waitFor()
    const mineOnServer = (await serverComments(page, videoId)).comments.find((c) => c.text === text)!
    expect(mineOnServer).toMatchObject({ likes: 1, dislikes: 0, userVote: 'like' })

    // Sort: the most liked first, as the server orders them.
    await page.getByLabel('Sort by').selectOption('top')
    await expect.poll(() => list.first().textContent(), SETTLE).toContain(text)
    const top = await serverComments(page, videoId, 'top')
    expect(top.comments[0]!.text).toBe(text)
    await screenshotAtBothWidths(page, `comments-voted-sorted-${where}`)

    // A reply in the thread, with its own draft.
    const reply = `A gentle answer ${unique()}`
    await mine.getByRole('button', { name: 'Reply', exact: true }).click()
    await mine.getByRole('textbox').fill(reply)
    await mine.getByRole('button', { name: 'Post reply' }).click()
    await mine.locator('.comment--reply', { hasText: reply }).waitFor()
    const replies = await graphql<{ data: { commentReplies: { totalCount: number; comments: { text: string }[] } } }>(page, REPLIES, {
      c: mineOnServer.id,
    })
    expect(replies.data.commentReplies.comments.map((c) => c.text)).toEqual([reply])
    // The writer is no moderator: no pin, no remove.
    expect(await mine.getByRole('button', { name: /^(Pin|Remove)$/ }).count()).toBe(0)
    await screenshotAtBothWidths(page, `comments-thread-${where}`)

    // The moderator, in a context of their own: dislikes it twice ('already disliked'), pins and unpins it, and
    // removes the reply.
    const moderatorContext = await visitorContext(browser)
    const moderator = await moderatorContext.newPage()
    await signIn(moderator, 'moderator', writer.brand, videoPath)
    await dismissWelcomeModals(moderator)
    await moderator.getByLabel('Sort by').selectOption('top')
    const theirs = moderator.locator('.comment', { hasText: text }).first()
    await theirs.waitFor()
    await theirs.getByRole('button', { name: /^Dislike/ }).click()
    await expect.poll(() => theirs.getByRole('button', { name: /^Dislike/ }).getAttribute('aria-pressed'), SETTLE).toBe('true')
    await theirs.getByRole('button', { name: /^Dislike/ }).click()
    await flash(moderator, 'already disliked').waitFor()
    await theirs.getByRole('button', { name: 'Pin', exact: true }).click()
    await expect.poll(async () => (await serverComments(moderator, videoId)).comments.find((c) => c.text === text)?.pinned, SETTLE).toBe(true)
    await theirs.getByRole('button', { name: 'Unpin', exact: true }).waitFor()
    await theirs.getByRole('button', { name: 'Show 1 reply' }).click()
    const theReply = theirs.locator('.comment--reply', { hasText: reply })
    await theReply.waitFor()
    await screenshotAtBothWidths(moderator, `comments-moderator-${where}`)
    await theirs.getByRole('button', { name: 'Unpin', exact: true }).click()
    await expect.poll(async () => (await serverComments(moderator, videoId)).comments.find((c) => c.text === text)?.pinned, SETTLE).toBe(false)
    await theReply.getByRole('button', { name: 'Remove', exact: true }).click()
    await expect
      .poll(async () => (await graphql<{ data: { commentReplies: { comments: unknown[] } } }>(moderator, REPLIES, { c: mineOnServer.id })).data.commentReplies.comments.length, SETTLE)
      .toBe(0)
    expect((await serverComments(moderator, videoId)).comments.find((c) => c.text === text)).toMatchObject({ likes: 1, dislikes: 1 })
    await moderatorContext.close()
  }, 150_000)
})
