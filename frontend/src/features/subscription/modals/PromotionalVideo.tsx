// PromotionalVideo, a membership modal (product.md, "Subscriptions and their states"): the teaser.
import { useMutation } from '@apollo/client/react'
import { useEffect } from 'react'
import { Link } from 'react-router'
import type { ModalBodyProps } from '../../../app/shell/modalIds'
import { AcknowledgePromotionalTeaserViewedDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

export function PromotionalVideo({ close }: ModalBodyProps<'PromotionalVideo'>) {
  const [acknowledge] = useMutation(AcknowledgePromotionalTeaserViewedDocument)
  useEffect(() => {
    // Shown is viewed: the teaser opens once (product.md, "Modals and flashes").
    void acknowledge().catch(() => undefined)
  }, [acknowledge])
  return (
    <div className="promotional-video">
      <p>{t('promotional_video_modal.text')}</p>
      <div className="modal__actions">
        <Link className="button button--accent" to="/videos" onClick={close}>
          {t('promotional_video_modal.watch')}
        </Link>
        <button type="button" className="button" onClick={close}>
          {t('promotional_video_modal.later')}
        </button>
      </div>
    </div>
  )
}
