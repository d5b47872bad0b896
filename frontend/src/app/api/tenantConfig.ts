// The tenant configuration from the gateway. The page's bootstrap carries the same object for the first paint;
// this query is how a long-lived tab reads it again (tenantConfig is a JSON scalar, validated by the gateway).
import type { ApolloClient } from '@apollo/client'
import { TenantConfigDocument } from '../../gql/graphql'
import { parseTenantConfig } from '../session/bootstrap'
import type { TenantConfig } from '../routing'

export const TenantConfigQuery = TenantConfigDocument

export async function fetchTenantConfig(client: ApolloClient): Promise<TenantConfig> {
  const { data } = await client.query({ query: TenantConfigQuery })
  return parseTenantConfig(data?.tenantConfig)
}
