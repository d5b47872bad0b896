// Records a health warning's acknowledgement on the signed-in user's profile. Loaded on the click only: the overlay
// itself is in the shell's first page, this call need not be.
import type { ApolloClient } from '@apollo/client'
import { AcknowledgeHealthWarningDocument } from '../../gql/graphql'

export async function acknowledgeHealthWarningOnProfile(client: ApolloClient, region: 'US-TX' | 'US-AL'): Promise<void> {
  await client.mutate({ mutation: AcknowledgeHealthWarningDocument, variables: { usaHealthWarningStateCode: region } })
}
