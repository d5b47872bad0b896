// Downloads (product.md, "Downloads and quotas"): a button per resolution; each download counts against the quota, and the line
// below says what is left, or the limit message with the maximum and the days until reset.
import { useMutation, useQuery } from '@apollo/client/react'
import { useState } from 'react'
import { useFlash } from '../../../app/shell/Flash'
import { getFragmentData } from '../../../gql/fragment-masking'
import { DownloadQuotas_QuotasFragmentDoc, DownloadResolutionsDocument, DownloadVideoDocument } from '../../../gql/graphql'
import { downloadErrorMessage, quotaLine, type QuotaFacts } from '../videoUnlock'
import './unlocks.css'
import { t } from '../../../app/i18n'
import '../copy'

export function DownloadPanel({ videoId }: { videoId: string }) {
  const flashes = useFlash()
  const { data, error } = useQuery(DownloadResolutionsDocument, { variables: { videoId }, fetchPolicy: 'network-only' })
  const [download, { loading }] = useMutation(DownloadVideoDocument)
  const [quota, setQuota] = useState<QuotaFacts | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [lastFile, setLastFile] = useState<{ label: string; url: string } | null>(null)
  if (error || !data) return null
  const { resolutions } = data.downloadResolutions
  if (resolutions.length === 0) return null
  const current = quota ?? getFragmentData(DownloadQuotas_QuotasFragmentDoc, data.downloadResolutions.downloadQuotas)
  const line = quotaLine(current)

  async function onDownload(size: string) {
    if (loading) return
    setFailure(null)
    try {
      const { data: answer } = await download({ variables: { videoId, size } })
      if (!answer) throw new Error('no answer')
      const { token, resolution, downloadQuotas } = answer.downloadVideo
      setQuota(getFragmentData(DownloadQuotas_QuotasFragmentDoc, downloadQuotas))
      setLastFile({ label: resolution.label, url: token.url })
      // The token's URL answers as an attachment: the browser saves it and the page stays.
      const link = document.createElement('a')
      link.href = token.url
      link.download = ''
      link.rel = 'noopener'
      document.body.append(link)
      link.click()
      link.remove()
    } catch (caught) {
      const message = downloadErrorMessage(caught)
      setFailure(message)
      flashes.add({ type: 'error', message })
    }
  }

  return (
    <section className="downloads" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">{t('downloads.heading')}</h2>
      <ul className="downloads__list">
        {resolutions.map((resolution) => (
          <li key={resolution.size}>
            <button
              type="button"
              className="button"
              onClick={() => onDownload(resolution.size)}
              disabled={loading || line.reached}
            >
              {resolution.label}
            </button>
          </li>
        ))}
      </ul>
      <p className={line.reached ? 'notice notice--error' : 'muted'} data-testid="download-quota" role={line.reached ? 'alert' : undefined}>
        {failure ?? line.text}
      </p>
      {lastFile ? (
        <p className="muted" data-testid="download-started">
          {t('downloads.started', { file: lastFile.label })}
        </p>
      ) : null}
    </section>
  )
}
