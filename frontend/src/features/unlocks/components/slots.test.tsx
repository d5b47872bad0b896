// The unlocks components other features render come through slots that load their code on first render: what the
// user sees once it is in is the component's own.
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { FlashProvider } from '../../../app/shell/Flash'
import { scriptedGraphql, WithGraphql } from '../../../testing/graphql'
import { DownloadPanel } from '../index'

afterEach(cleanup)

const quotas = {
  __typename: 'DownloadQuotas',
  thresholdReached: false,
  downloadsNumber: 1,
  downloadQuotaMax: 5,
  downloadDaysPeriod: 30,
  quotaLeft: 4,
  remainingDays: 12,
  zeroQuota: false,
  site: 'tushy',
}

describe('the download panel on the video page', () => {
  it('shows nothing while its code and its answer are on their way, then the buttons and the quota line', async () => {
    const { client, calls } = scriptedGraphql({
      DownloadResolutions: {
        downloadResolutions: {
          __typename: 'DownloadResolutions',
          resolutions: [{ __typename: 'DownloadResolution', label: '720p', size: 'p720', width: 1280, res: '720' }],
          downloadQuotas: quotas,
        },
      },
    })
    const { container } = render(
      <WithGraphql client={client}>
        <FlashProvider>
          <DownloadPanel videoId="v-1" />
        </FlashProvider>
      </WithGraphql>,
    )
    expect(container.textContent).toBe('')
    expect(await screen.findByRole('button', { name: '720p' })).toBeTruthy()
    expect(screen.getByTestId('download-quota').textContent).toBe('4 of 5 downloads left in this 30-day period.')
    expect(calls).toEqual([{ operationName: 'DownloadResolutions', variables: { videoId: 'v-1' } }])
  })
})
