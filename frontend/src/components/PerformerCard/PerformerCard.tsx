// A performer in a list: portrait, name, number of videos.
import { Link } from 'react-router'
import { getFragmentData, type FragmentType } from '../../gql/fragment-masking'
import { PerformerCard_PerformerFragmentDoc, type PerformerCard_PerformerFragment } from '../../gql/graphql'
import { Picture } from '../Picture/Picture'
import './PerformerCard.css'
import { t } from '../../app/i18n'

/** What a card shows: the PerformerCard_performer fragment (VideoCard.graphql). */
export type PerformerCardPerformer = FragmentType<typeof PerformerCard_PerformerFragmentDoc>

export function PerformerCard({ performer: masked, href }: { performer: PerformerCardPerformer; href?: string }) {
  const performer = getFragmentData(PerformerCard_PerformerFragmentDoc, masked)
  return (
    <Link to={href ?? `/performers/${performer.slug}`} className="performer-card">
      <span className="performer-card__media">
        <Picture image={performer.image} alt="" className="performer-card__image" />
      </span>
      <span className="performer-card__name">{performer.name}</span>
      <span className="performer-card__count muted">
        {t('count.videos', { count: performer.videoCount })}
      </span>
    </Link>
  )
}

export function PerformerGrid({
  performers,
  hrefFor,
  label,
}: {
  performers: readonly PerformerCardPerformer[]
  hrefFor?: (performer: PerformerCard_PerformerFragment) => string
  label?: string
}) {
  return (
    <ul className="performer-grid" aria-label={label}>
      {performers.map((masked) => {
        const performer = getFragmentData(PerformerCard_PerformerFragmentDoc, masked)
        return (
          <li key={performer.id}>
            <PerformerCard performer={masked} href={hrefFor?.(performer)} />
          </li>
        )
      })}
    </ul>
  )
}
