// The video's average rating; a signed-in member rates it once, 1 to 10.
import { useMutation } from '@apollo/client/react'
import { useId, useState, type FormEvent } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import { useSession } from '../../../app/session/SessionContext'
import { formatRating } from '../../../components/VideoCard/format'
import { RateVideoDocument } from '../../../gql/graphql'
import { ratingErrorMessage } from '../comments'
import { t } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

export const MAX_RATING = 10

export function Rating({ videoId, rating, ratingCount, userRating }: {
  videoId: string
  rating: number
  ratingCount: number
  /** -1 when the viewer has not rated. */
  userRating: number
}) {
  const { user } = useSession()
  const flashes = useFlash()
  const id = useId()
  const [chosen, setChosen] = useState(MAX_RATING)
  const [rate, { data, loading }] = useMutation(RateVideoDocument)
  const average = formatRating(data?.rateVideo.videoRating ?? rating)
  const mine = data?.rateVideo.userVideoRatings.rating ?? userRating
  async function submit(event: FormEvent) {
    event.preventDefault()
    try {
      await rate({ variables: { videoId, rating: chosen } })
    } catch (error) {
      flashes.add({ type: 'error', message: ratingErrorMessage(error) })
    }
  }
  return (
    <div className="rating">
      <p>
        {average ? (
          <>
            <strong aria-label={t('videos.rated', { average, max: MAX_RATING })}>★ {average}</strong>{' '}
            <span className="muted">({t('videos.ratings', { count: ratingCount + (data && userRating < 0 ? 1 : 0) })})</span>
          </>
        ) : (
          <span className="muted">{t('videos.not_rated')}</span>
        )}
      </p>
      {user.isAuthenticated && mine < 0 ? (
        <form onSubmit={submit} className="rating__form">
          <label htmlFor={id}>{t('videos.your_rating')}</label>
          <select id={id} value={chosen} onChange={(event) => setChosen(Number(event.target.value))}>
            {Array.from({ length: MAX_RATING }, (_, index) => MAX_RATING - index).map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          <button type="submit" className="button" disabled={loading}>
            {t('videos.rate')}
          </button>
        </form>
      ) : null}
      {mine >= 0 ? <p className="muted">{t('videos.you_rated', { rating: mine })}</p> : null}
    </div>
  )
}
