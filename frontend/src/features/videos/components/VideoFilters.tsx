// The /videos filters: order and category, as the page's query (filter, categories), so every filtered list has
// an address. Changing one applies it at once; the button is there for keyboard and no-script users.
import { Form, useSubmit } from 'react-router'
import { useId } from 'react'
import { t, type TranslationKey } from '../../../app/i18n'
import '../../../app/i18n/copy/shared'
import '../copy'

export const VIDEO_ORDERS = [
  { value: 'newest', label: 'videos.order.newest' },
  { value: 'oldest', label: 'videos.order.oldest' },
  { value: 'rating', label: 'videos.order.rating' },
] as const satisfies ReadonlyArray<{ value: string; label: TranslationKey }>

export function VideoFilters({ filter, categories, options }: {
  filter: string | null
  categories: string | null
  options: ReadonlyArray<{ slug: string; name: string; scenes: number }>
}) {
  const submit = useSubmit()
  const id = useId()
  return (
    <Form method="get" action="/videos" className="filters" onChange={(event) => submit(event.currentTarget)}>
      <label htmlFor={`${id}-order`}>{t('videos.order.label')}</label>
      <select id={`${id}-order`} name="filter" defaultValue={filter ?? 'newest'}>
        {VIDEO_ORDERS.map((order) => (
          <option key={order.value} value={order.value}>
            {t(order.label)}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-category`}>{t('videos.category')}</label>
      <select id={`${id}-category`} name="categories" defaultValue={categories ?? ''}>
        <option value="">{t('videos.all_categories')}</option>
        {options.map((category) => (
          <option key={category.slug} value={category.slug}>
            {category.name} ({category.scenes})
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        {t('common.apply')}
      </button>
    </Form>
  )
}
