// The favourite channels (listScreen.tsx).
import '../copy'
import '../../../app/i18n/copy/shared'
import { listScreen } from './listScreen'

export const FavoriteChannelsScreen = listScreen('channel', 'favorites.channels_title', 'listing.channels')
