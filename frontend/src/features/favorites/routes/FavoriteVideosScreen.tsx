// The favourite videos (listScreen.tsx).
import '../copy'
import '../../../app/i18n/copy/shared'
import { listScreen } from './listScreen'

export const FavoriteVideosScreen = listScreen('video', 'favorites.videos_title', 'listing.videos')
