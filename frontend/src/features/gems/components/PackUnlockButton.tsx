// A channel pack's unlock button (users who may unlock packs: tenant access): opens UnlockChannel, or says the pack
// is already theirs.
import { useQuery } from '@apollo/client/react'
import { useModals } from '../../../app/shell/ModalManager'
import { useSession } from '../../../app/session/SessionContext'
import { UnlockedPacksDocument } from '../../../gql/graphql'
import { t } from '../../../app/i18n'
import '../copy'

export function PackUnlockButton({ channelPackId, packName }: { channelPackId: string; packName: string }) {
  const { user } = useSession()
  const { open } = useModals()
  const mayUnlock = user.isAuthenticated && user.can('unlock', 'ChannelPack')
  const { data, refetch } = useQuery(UnlockedPacksDocument, { skip: !mayUnlock, fetchPolicy: 'cache-and-network' })
  if (!mayUnlock || !data) return null
  if (data.unlockState.unlockedChannelPackIds.includes(channelPackId)) {
    return (
      <p className="pack-unlocked" data-testid="pack-unlocked">
        <span aria-hidden="true">◆</span> {t('gems.unlocked')}
      </p>
    )
  }
  return (
    <button
      type="button"
      className="button button--accent"
      onClick={() =>
        open('UnlockChannel', { channelPackId, packName, onUnlocked: () => void refetch().catch(() => undefined) })
      }
    >
      {t('gems.unlock_pack', { pack: packName, cost: data.unlockState.channelPackCostGems })}
    </button>
  )
}
