// A catalog image: its intrinsic size reserves the box before it loads (no layout shift), the high-DPI variants go
// into srcset, and only the page's main image loads eagerly with high priority (LCP).
import { getFragmentData, type FragmentType } from '../../gql/fragment-masking'
import { Picture_ImageFragmentDoc, type Picture_ImageFragment } from '../../gql/graphql'

export interface PictureProps {
  /** The Picture_image fragment (VideoCard.graphql). */
  image: FragmentType<typeof Picture_ImageFragmentDoc>
  alt: string
  /** The page's largest image: load at once, ahead of the rest. */
  priority?: boolean
  className?: string
  sizes?: string
}

export function srcSet(image: Pick<Picture_ImageFragment, 'src' | 'highdpi'>): string | undefined {
  if (!image.highdpi) return undefined
  return `${image.src} 1x, ${image.highdpi.double} 2x, ${image.highdpi.triple} 3x`
}

export function Picture({ image: masked, alt, priority = false, className, sizes }: PictureProps) {
  const image = getFragmentData(Picture_ImageFragmentDoc, masked)
  return (
    <img
      className={className}
      src={image.src}
      srcSet={srcSet(image)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
    />
  )
}
