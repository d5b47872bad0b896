// Tests: an Apollo Client whose answers are scripted by operation name, and empty catalog answers for the screens.
import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client'
import { ApolloProvider } from '@apollo/client/react'
import type { ReactNode } from 'react'
import { Observable } from 'rxjs'

export type GraphqlAnswer = Record<string, unknown> | ((variables: Record<string, unknown>) => Record<string, unknown>)

export interface ScriptedGraphql {
  client: ApolloClient
  /** Operation names in the order they were asked, with their variables. */
  calls: Array<{ operationName: string; variables: Record<string, unknown> }>
}

export function scriptedGraphql(answers: Readonly<Record<string, GraphqlAnswer>>): ScriptedGraphql {
  const calls: ScriptedGraphql['calls'] = []
  const link = new ApolloLink(
    (operation) =>
      new Observable((observer) => {
        const { operationName = '', variables } = operation
        calls.push({ operationName, variables })
        const answer = answers[operationName]
        if (answer === undefined) {
          observer.next({ data: null, errors: [{ message: `no scripted answer for ${operationName}` }] })
        } else {
          observer.next({ data: typeof answer === 'function' ? answer(variables) : answer })
        }
        observer.complete()
      }),
  )
  return { client: new ApolloClient({ link, cache: new InMemoryCache() }), calls }
}

export function WithGraphql({ client, children }: { client: ApolloClient; children: ReactNode }) {
  return <ApolloProvider client={client}>{children}</ApolloProvider>
}

const videoPage = { __typename: 'VideoPage', totalCount: 0, page: 1, size: 12, videos: [] }

/** Every screen query of the browse screens, answered with empty lists. */
export const EMPTY_CATALOG: Readonly<Record<string, GraphqlAnswer>> = {
  HomePage: {
    recommended: { __typename: 'Recommendations', recommId: 'r-1', shelf: 'HOME_RECOMMENDATIONS', videos: [] },
    models: { __typename: 'Recommendations', recommId: 'r-2', shelf: 'RECOMMENDED_MODELS', performers: [] },
    latest: { __typename: 'VideoPage', totalCount: 0, videos: [] },
    topRated: { __typename: 'VideoPage', videos: [] },
  },
  VideoListing: {
    videos: videoPage,
    getAllFilters: { __typename: 'Filters', categories: [] },
  },
  PerformerListing: { performers: { __typename: 'PerformerPage', totalCount: 0, performers: [] } },
  ChannelListing: { channels: { __typename: 'ChannelPage', totalCount: 0, channels: [] } },
  FavoriteList: (variables) => ({
    favorites: {
      __typename: 'FavoritePage',
      kind: variables.kind,
      totalCount: 0,
      page: variables.page,
      size: variables.size,
      videos: [],
      performers: [],
      channels: [],
    },
  }),
  DealsPage: { carousel: [], listing: [] },
  JoinOptions: {
    joinOptions: {
      __typename: 'JoinOptions',
      site: 'tushy',
      siteId: 1,
      joinOptions: [],
      trialUpgrade: { __typename: 'TrialUpgradePrice', price: '29.95', currency: 'USD', rebillPeriodDays: 30 },
    },
  },
}
