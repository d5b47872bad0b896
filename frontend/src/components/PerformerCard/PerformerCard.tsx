// A performer in a list: portrait, name, number of videos.
import { Link } from 'react-router'
import { Picture, type PictureImage } from '../Picture/Picture'
import './PerformerCard.css'

export interface PerformerCardPerformer {
  id: string
  slug: string
  name: string
  videoCount: number
  image: PictureImage
}

export function PerformerCard({ performer, href }: { performer: PerformerCardPerformer; href?: string }) {
  return (
    <Link to={href ?? `/performers/${performer.slug}`} className="performer-card">
      <span className="performer-card__media">
        <Picture image={performer.image} alt="" className="performer-card__image" />
      </span>
      <span className="performer-card__name">{performer.name}</span>
      <span className="performer-card__count muted">
        {performer.videoCount} {performer.videoCount === 1 ? 'video' : 'videos'}
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
  hrefFor?: (performer: PerformerCardPerformer) => string
  label?: string
}) {
  return (
    <ul className="performer-grid" aria-label={label}>
      {performers.map((performer) => (
        <li key={performer.id}>
          <PerformerCard performer={performer} href={hrefFor?.(performer)} />
        </li>
      ))}
    </ul>
  )
}
