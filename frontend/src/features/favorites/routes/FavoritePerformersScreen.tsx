// The favourite performers (listScreen.tsx).
import '../copy'
import { listScreen } from './listScreen'

export const FavoritePerformersScreen = listScreen('performer', 'favorites.performers_title', 'favorites.performers_noun')
