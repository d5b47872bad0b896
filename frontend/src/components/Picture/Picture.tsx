// A catalog image: its intrinsic size reserves the box before it loads (no layout shift), the high-DPI variants go
// into srcset, and only the page's main image loads eagerly with high priority (LCP).
export interface PictureImage {
  src: string
  width: number
  height: number
  highdpi?: { double: string; triple: string } | null
}

export interface PictureProps {
  image: PictureImage
  alt: string
  /** The page's largest image: load at once, ahead of the rest. */
  priority?: boolean
  className?: string
  sizes?: string
}

export function srcSet(image: PictureImage): string | undefined {
  if (!image.highdpi) return undefined
  return `${image.src} 1x, ${image.highdpi.double} 2x, ${image.highdpi.triple} 3x`
}

export function Picture({ image, alt, priority = false, className, sizes }: PictureProps) {
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
