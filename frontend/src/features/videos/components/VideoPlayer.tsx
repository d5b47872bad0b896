// The player: a member's video from its tokens (one per quality, chosen by the viewer), else the trailer with the
// way in — the join link for visitors, the purchase modal for members whose access does not cover the video.
import { useQuery } from '@apollo/client/react'
import { useEffect, useState, type ReactNode } from 'react'
import { useSession } from '../../../app/session/SessionContext'
import { isMobileViewport, useViewportType } from '../../../app/theme/useViewport'
import { JoinLink } from '../../../components/JoinLink'
import { VideoTokensDocument } from '../../../gql/graphql'
import { LockedVideo, preloadLockedVideo } from '../../unlocks'
import { UpgradeOverlay } from '../../upgrade'
import { defaultSource, isVideoFile, playableSources } from '../player'
import './VideoPlayer.css'
import { t } from '../../../app/i18n'
import '../copy'

export interface PlayerVideo {
  uuid: string
  newId?: string
  title: string
  trailer: { src: string; poster: string }
  isThirdPartyChannel?: boolean
  channel?: { name?: string | null } | null
}

/**
 * The trailer (a short clip under /media/trailers/, apart from the full videos), playing for everyone unless it is
 * denied (product.md, "Roles and abilities": the server then sends no src, and the poster stays with a note).
 */
export function Trailer({ video, autoPlay = false, children }: { video: PlayerVideo; autoPlay?: boolean; children?: ReactNode }) {
  const { src, poster } = video.trailer
  return (
    <div className="player" data-testid="trailer">
      {src === '' ? (
        <>
          <img className="player__media" src={poster} alt={video.title} width={1280} height={720} fetchPriority="high" />
          <p className="player__note">{t('videos.trailer_unavailable')}</p>
        </>
      ) : isVideoFile(src) ? (
        <video className="player__media" src={src} poster={poster} controls autoPlay={autoPlay} muted={autoPlay} playsInline>
          <track kind="captions" />
        </video>
      ) : (
        <img className="player__media" src={src} alt={t('videos.trailer_title', { title: video.title })} width={1280} height={720} fetchPriority="high" />
      )}
      {children}
    </div>
  )
}

/** The player's place while what it shows is not known yet: the tokens, or a refused video's way in. */
const LOADING = <div className="player player--loading" aria-busy="true" />

function MemberPlayer({ video }: { video: PlayerVideo }) {
  const { data, loading, refetch } = useQuery(VideoTokensDocument, { variables: { videoId: video.uuid }, errorPolicy: 'all' })
  const mobile = isMobileViewport(useViewportType())
  const sources = playableSources(data?.getToken)
  const [chosen, setChosen] = useState<string>()
  // The way in is a chunk of its own; it is fetched while the tokens are asked for, which say whether it is needed.
  useEffect(() => preloadLockedVideo(), [])
  if (loading) return LOADING
  const source = sources.find((candidate) => candidate.quality === chosen) ?? defaultSource(sources, mobile)
  if (!source) {
    // FORBIDDEN: the account does not cover this video. The trailer stays; the way in follows the access-denied
    // routing of product.md, "Access-denied routing" (a pack's unlock with gems, a credit, or a membership); over the trailer, the upgrade overlay for those
    // whose abilities hold it.
    return (
      <LockedVideo
        video={video}
        onUnlocked={() => void refetch().catch(() => undefined)}
        trailer={(showUpgradeOverlay) => <Trailer video={video}>{showUpgradeOverlay ? <UpgradeOverlay video={video} /> : null}</Trailer>}
        fallback={LOADING}
      />
    )
  }
  return (
    <div className="player">
      <video key={source.url} className="player__media" src={source.url} poster={video.trailer.poster} controls playsInline>
        <track kind="captions" />
      </video>
      <label className="player__quality">
        {t('videos.quality')}{' '}
        <select value={source.quality} onChange={(event) => setChosen(event.target.value)}>
          {sources.map((candidate) => (
            <option key={candidate.quality} value={candidate.quality}>
              {candidate.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}

/** Visitors see the trailer (product.md, "Roles and abilities") and the join link; signed-in users their video. */
export function VideoPlayer({ video }: { video: PlayerVideo }) {
  const { user, tenant } = useSession()
  if (user.isAuthenticated) return <MemberPlayer video={video} />
  return (
    <>
      <Trailer video={video} />
      <p className="player__join">
        <JoinLink elm="video-player">{t('videos.join_to_watch', { site: tenant.site })}</JoinLink>
      </p>
    </>
  )
}
