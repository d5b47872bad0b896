// /casting (LegalScreen.tsx).
import { LegalScreen } from './LegalScreen'

export const CastingScreen = () => <LegalScreen />
