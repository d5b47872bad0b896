// The /videos filters: order and category, as the page's query (filter, categories), so every filtered list has
// an address. Changing one applies it at once; the button is there for keyboard and no-script users.
import { Form, useSubmit } from 'react-router'
import { useId } from 'react'

export const VIDEO_ORDERS = [
  { value: 'newest', label: 'Newest' },
  { value: 'oldest', label: 'Oldest' },
  { value: 'rating', label: 'Top rated' },
] as const

export function VideoFilters({ filter, categories, options }: {
  filter: string | null
  categories: string | null
  options: ReadonlyArray<{ slug: string; name: string; scenes: number }>
}) {
  const submit = useSubmit()
  const id = useId()
  return (
    <Form method="get" action="/videos" className="filters" onChange={(event) => submit(event.currentTarget)}>
      <label htmlFor={`${id}-order`}>Order</label>
      <select id={`${id}-order`} name="filter" defaultValue={filter ?? 'newest'}>
        {VIDEO_ORDERS.map((order) => (
          <option key={order.value} value={order.value}>
            {order.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-category`}>Category</label>
      <select id={`${id}-category`} name="categories" defaultValue={categories ?? ''}>
        <option value="">All categories</option>
        {options.map((category) => (
          <option key={category.slug} value={category.slug}>
            {category.name} ({category.scenes})
          </option>
        ))}
      </select>
      <button type="submit" className="button">
        Apply
      </button>
    </Form>
  )
}
