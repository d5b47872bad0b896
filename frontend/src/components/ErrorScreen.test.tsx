import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorScreen } from './ErrorScreen'

afterEach(cleanup)

describe('error screen', () => {
  it('says something went wrong and offers Go Home', () => {
    const onGoHome = vi.fn()
    render(<ErrorScreen onGoHome={onGoHome} />)
    expect(screen.getByText('Something went wrong! We are working to fix this as soon as possible.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Go Home' }))
    expect(onGoHome).toHaveBeenCalledTimes(1)
  })

  it('shows no "Fill a report" button without an error-report id', () => {
    render(<ErrorScreen onGoHome={() => {}} />)
    expect(screen.queryByRole('button', { name: 'Fill a report' })).toBeNull()
  })

  it('shows "Fill a report" when an error-report id exists, and passes the id on', () => {
    const onFillReport = vi.fn()
    render(<ErrorScreen errorReportId="rep-7" onGoHome={() => {}} onFillReport={onFillReport} />)
    fireEvent.click(screen.getByRole('button', { name: 'Fill a report' }))
    expect(onFillReport).toHaveBeenCalledWith('rep-7')
  })

  it('is the e500 page, titled for it', () => {
    render(<ErrorScreen onGoHome={() => {}} />)
    expect(document.title).toBe('Server Error')
  })
})
