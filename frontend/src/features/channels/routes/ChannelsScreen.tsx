// The channels list.
import { Link } from 'react-router'
import { PAGE_SIZE } from '../../../app/routing'
import { useSessionIfAny } from '../../../app/session/SessionContext'
import { withScreenQuery } from '../../../app/screenQuery'
import { useScreenQuery } from '../../../app/useScreenQuery'
import { Listing } from '../../../components/Listing/Listing'
import { Page } from '../../../components/Page'
import { Picture } from '../../../components/Picture/Picture'
import { ChannelListingDocument, ChannelCard_ChannelFragmentDoc } from '../../../gql/graphql'
import { getFragmentData, type FragmentType } from '../../../gql/fragment-masking'
import { t } from '../../../app/i18n'
import '../copy'
import '../../../app/i18n/copy/shared'

const listQuery = (data: { page: number }) => ({
  query: ChannelListingDocument,
  variables: { page: data.page, size: PAGE_SIZE },
})

function ChannelsView() {
  const { page, result } = useScreenQuery(listQuery)
  // Every channel video is a member's list (config/routes.json: signed in, and "see Channels"): a visitor is not
  // shown a link the route would answer not-found.
  const user = useSessionIfAny()?.user
  const mayListAll = user?.isAuthenticated === true && user.can('see', 'Channels')
  return (
    <Page title={t('navigation.channels')}>
      {mayListAll && (
        <p>
          <Link to="/channels/all-videos">{t('channels.all_videos')}</Link>
        </p>
      )}
      <Listing page={page.page} totalCount={result.channels.totalCount} noun={t('listing.channels')}>
        <ul className="performer-grid" aria-label={t('navigation.channels')}>
          {result.channels.channels.map((channel) => (
            <li key={getFragmentData(ChannelCard_ChannelFragmentDoc, channel).channelId}>
              <ChannelCard channel={channel} />
            </li>
          ))}
        </ul>
      </Listing>
    </Page>
  )
}

/** A channel in the list: the ChannelCard_channel fragment. */
function ChannelCard({ channel: masked }: { channel: FragmentType<typeof ChannelCard_ChannelFragmentDoc> }) {
  const channel = getFragmentData(ChannelCard_ChannelFragmentDoc, masked)
  return (
    <Link to={`/channels/${channel.slug}`} className="performer-card">
      <span className="video-card__media">
        <Picture image={channel.image} alt="" className="video-card__image" />
      </span>
      <span className="performer-card__name">{channel.name}</span>
      <span className="muted">{t('performers.video_count', { count: channel.videoCount })}</span>
    </Link>
  )
}

export const ChannelsScreen = withScreenQuery(ChannelsView, listQuery)
