// A page whose content the server refused this user (FORBIDDEN): what is locked, and the way in of product.md, "Access-denied routing" ("When access
// is denied": the unlock-channel, unlock-or-upgrade or purchase modal), opened at once over the page as the denied
// guarded action does, and behind a button after it is closed. Never the error screen.
import { useQuery } from '@apollo/client/react'
import { useEffect, useMemo, useRef } from 'react'
import { Link, useRevalidator } from 'react-router'
import type { ScreenId } from '../../../app/routing'
import { useModals } from '../../../app/shell/ModalManager'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { LockedVideoDocument, type LockedVideoQuery } from '../../../gql/graphql'
import { useWayIn, WayInButton, type WayIn } from './LockedVideo'
import './unlocks.css'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

/** The screens of a video's content, by what of the video each shows. */
const VIDEO_CONTENT: Partial<Record<ScreenId, 'pictures' | 'trailer' | 'video'>> = {
  pictureSet: 'pictures',
  channelPictureSet: 'pictures',
  trailer: 'trailer',
  channelTrailer: 'trailer',
  video: 'video',
  videoWithComment: 'video',
  channelVideo: 'video',
}

/** The sentence saying what is locked. */
export function lockedText(content: 'pictures' | 'trailer' | 'video' | 'page', title: string): string {
  return t(`locked.text.${content}`, { title })
}

/** Opens the way in once, as soon as it is known. */
function useOpenOnce(way: WayIn) {
  const opened = useRef(false)
  useEffect(() => {
    if (way.ready && !opened.current) {
      opened.current = true
      // Support is a page of its own, and an unknown refusal is asked again by hand: neither opens by itself.
      if (way.step !== 'support' && way.step !== 'unknown') way.open()
    }
  }, [way])
}

function LockedVideoContent({ slug, content, channelSlug }: { slug: string; content: 'pictures' | 'trailer' | 'video'; channelSlug?: string }) {
  const { data } = useQuery(LockedVideoDocument, { variables: { videoSlug: slug } })
  const revalidator = useRevalidator()
  const video = data?.getVideo.video
  if (!video) return <main className="page page-loading" aria-busy="true" />
  const videoHref = channelSlug ? `/channels/${channelSlug}/videos/${video.slug}` : `/videos/${video.slug}`
  return (
    <LockedVideoView
      video={video}
      content={content}
      videoHref={content === 'video' ? undefined : videoHref}
      onUnlocked={() => void revalidator.revalidate()}
    />
  )
}

function LockedVideoView({
  video,
  content,
  videoHref,
  onUnlocked,
}: {
  video: LockedVideoQuery['getVideo']['video']
  content: 'pictures' | 'trailer' | 'video'
  videoHref?: string
  onUnlocked: () => void
}) {
  const way = useWayIn(video, onUnlocked)
  useOpenOnce(way)
  return (
    <Page title={video.title} shows={{ name: video.title }}>
      <div className="locked-page" data-testid="locked-page">
        <Picture image={video.images.poster} alt={video.title} priority className="locked-page__poster" />
        <WayInButton way={way}>
          {way.step === 'modal' || !way.note ? lockedText(content, video.title) : way.note}
        </WayInButton>
        {videoHref ? (
          <p>
            <Link to={videoHref}>{t('videos.go_to_video')}</Link>
          </p>
        ) : null}
      </div>
    </Page>
  )
}

/** A locked page without a video: the purchase modal (single-site options), the last case of product.md, "Access-denied routing". */
function LockedOtherContent() {
  const { open } = useModals()
  const stable = useMemo<WayIn>(
    () => ({
      ready: true,
      note: '',
      label: t('locked.get_full_access'),
      step: 'modal',
      open: () => open('PurchaseMembership', { singleSiteOnly: true }),
    }),
    [open],
  )
  useOpenOnce(stable)
  const text = lockedText('page', '')
  return (
    <Page title={t('locked.members_only')}>
      <div className="locked-page" data-testid="locked-page">
        <WayInButton way={stable}>{text}</WayInButton>
      </div>
    </Page>
  )
}

export function LockedPage({ screen, data }: { screen: ScreenId; data: Record<string, unknown> | undefined }) {
  const content = VIDEO_CONTENT[screen]
  const slug = typeof data?.videoSlug === 'string' ? data.videoSlug : typeof data?.slug === 'string' ? data.slug : undefined
  const channelSlug = typeof data?.channelSlug === 'string' ? data.channelSlug : undefined
  if (content && slug) return <LockedVideoContent slug={slug} content={content} channelSlug={channelSlug} />
  return <LockedOtherContent />
}
