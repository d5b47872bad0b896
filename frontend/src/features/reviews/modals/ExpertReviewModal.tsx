// ExpertReviewModal: the overall rating (1 to 10) first, then each criterion and performer (1 to 5); the server
// refuses the others before the overall one ('Oops! Please leave your overall rating first to continue').
import { useMutation, useQuery } from '@apollo/client/react'
import { useState } from 'react'
import { refusalOf } from '../../../app/api/graphqlErrors'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { getFragmentData } from '../../../gql/fragment-masking'
import {
  ExpertReview_AnswerFragmentDoc,
  ExpertReviewDocument,
  UpdateExpertReviewDocument,
  type ExpertReviewType,
} from '../../../gql/graphql'

/** Rating maximum 10; a criterion's or performer's 5 (product.md, "Comments, ratings and favourites"). */
export const OVERALL_MAX = 10
export const ITEM_MAX = 5

function Scale({ label, max, value, disabled, onRate }: { label: string; max: number; value: number; disabled: boolean; onRate: (n: number) => void }) {
  return (
    <fieldset className="review-scale">
      <legend>{label}</legend>
      {Array.from({ length: max }, (_, index) => index + 1).map((n) => (
        <button
          key={n}
          type="button"
          className={`button${n <= value ? ' button--accent' : ''}`}
          aria-pressed={n === value}
          aria-label={t('reviews.scale', { label, n, max })}
          disabled={disabled}
          onClick={() => onRate(n)}
        >
          {n}
        </button>
      ))}
    </fieldset>
  )
}

export function ExpertReviewModal({ props }: ModalBodyProps<'ExpertReviewModal'>) {
  const { videoId } = props
  const recommId = props.recommId ?? null
  const { data, loading, error } = useQuery(ExpertReviewDocument, { variables: { videoId }, fetchPolicy: 'network-only' })
  const [update, { loading: saving }] = useMutation(UpdateExpertReviewDocument)
  const [failure, setFailure] = useState<string | null>(null)
  if (loading) return <p className="muted">{t('reviews.loading')}</p>
  if (error || !data) return <p role="alert">{t('reviews.failed')}</p>
  const review = getFragmentData(ExpertReview_AnswerFragmentDoc, data.expertReview).expertReview
  async function rate(type: ExpertReviewType, rating: number, slug: string | null = null) {
    setFailure(null)
    try {
      await update({ variables: { videoId, type, rating, slug, recommId }, refetchQueries: [ExpertReviewDocument] })
    } catch (caught) {
      const refusal = refusalOf(caught)
      setFailure(refusal?.code === 'OVERALL_RATING_FIRST' ? t('rating.overall_first') : refusal?.message ?? t('common.try_again'))
    }
  }
  const rateGlobal = (n: number) => rate('global', n)
  const rateProperty = (slug: string) => (n: number) => rate('property', n, slug)
  const rateModel = (slug: string) => (n: number) => rate('model', n, slug)
  return (
    <div className="expert-review">
      <Scale label={t('reviews.overall')} max={OVERALL_MAX} value={review.global} disabled={saving} onRate={rateGlobal} />
      {review.properties.map((property) => (
        <Scale key={property.slug} label={property.name} max={ITEM_MAX} value={property.rating} disabled={saving} onRate={rateProperty(property.slug)} />
      ))}
      {review.models.map((model) => (
        <Scale key={model.slug} label={model.name} max={ITEM_MAX} value={model.rating} disabled={saving} onRate={rateModel(model.slug)} />
      ))}
      {failure ? (
        <p role="alert" className="notice notice--error">
          {failure}
        </p>
      ) : null}
    </div>
  )
}
