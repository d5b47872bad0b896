// Favourite a video (signed-in members): a toggle button that says its state.
import { useMutation, useQuery } from '@apollo/client/react'
import { useFlash } from '../../../app/shell/Flash'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'
import { AddFavoriteVideoDocument, RemoveFavoriteVideoDocument, VideoFavoriteDocument } from '../../../gql/graphql'

export function FavoriteButton({ videoSlug }: { videoSlug: string }) {
  const flashes = useFlash()
  const { data } = useQuery(VideoFavoriteDocument, { variables: { videoSlug }, errorPolicy: 'all' })
  const refetchQueries = [VideoFavoriteDocument]
  const [add, adding] = useMutation(AddFavoriteVideoDocument, { refetchQueries })
  const [remove, removing] = useMutation(RemoveFavoriteVideoDocument, { refetchQueries })
  const video = data?.getVideo.video
  if (!video) return null
  const busy = adding.loading || removing.loading
  async function toggle() {
    if (!video) return
    try {
      await (video.isFavorite ? remove : add)({ variables: { id: video.uuid } })
    } catch {
      flashes.add({ type: 'error', message: t('common.try_again') })
    }
  }
  return (
    <button type="button" className="button" aria-pressed={video.isFavorite} disabled={busy} onClick={toggle}>
      {video.isFavorite ? t('videos.in_favorites') : t('videos.add_to_favorites')}
    </button>
  )
}
