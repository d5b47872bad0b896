// A video's picture set (members): its images in a grid, each opening at full size.
import { Link } from 'react-router'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { getFragmentData } from '../../../gql/fragment-masking'
import { Picture_ImageFragmentDoc, PictureSetPageDocument } from '../../../gql/graphql'
import { videoSlugOf, type VideoRouteData } from './VideoPageView'
import { t } from '../../../app/i18n'
import '../copy'

const pictureSetQuery = (data: VideoRouteData) => ({
  query: PictureSetPageDocument,
  variables: { videoSlug: videoSlugOf(data) },
})

function PictureSetView() {
  const { page, result } = useScreenQuery(pictureSetQuery)
  const set = result.getPictureSet
  const videoHref = page.channelSlug ? `/channels/${page.channelSlug}/videos/${set.videoSlug}` : `/videos/${set.videoSlug}`
  return (
    <Page title={t('videos.pictures_title', { title: set.title })} shows={{ name: set.title }}>
      <p>
        <Link to={videoHref}>{t('videos.back_to_video')}</Link>
      </p>
      <ul className="picture-grid" aria-label={t('videos.pictures')}>
        {set.images.map((masked, index) => {
          const image = getFragmentData(Picture_ImageFragmentDoc, masked)
          return (
            <li key={image.src}>
              <a href={image.highdpi?.double ?? image.src} target="_blank" rel="noreferrer">
                <Picture image={masked} alt={t('videos.picture_alt', { title: set.title, number: index + 1 })} priority={index < 2} />
              </a>
            </li>
          )
        })}
      </ul>
    </Page>
  )
}

export const PictureSetPage = withScreenQuery(PictureSetView, pictureSetQuery)
