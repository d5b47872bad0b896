// A titled row of content (a recommendation shelf, related videos): a heading, an optional "see all" link and a
// list that scrolls sideways on phones and wraps into a grid from 481 px whose rows divide the spec's list sizes.
import { useId, type ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '../../app/i18n'
import { CardHeadingContext } from '../cardHeading'
import './Shelf.css'

export interface ShelfProps {
  title: string
  /** "See all" target. */
  moreHref?: string
  moreLabel?: string
  children: ReactNode
}

export function Shelf({ title, moreHref, moreLabel = t('common.see_all'), children }: ShelfProps) {
  const headingId = useId()
  return (
    <section className="shelf" aria-labelledby={headingId}>
      <div className="shelf__header">
        <h2 id={headingId} className="shelf__title">
          {title}
        </h2>
        {moreHref ? (
          <Link to={moreHref} className="shelf__more">
            {moreLabel}
            <span className="visually-hidden">: {title}</span>
          </Link>
        ) : null}
      </div>
      <CardHeadingContext.Provider value="h3">{children}</CardHeadingContext.Provider>
    </section>
  )
}
