// The join options, the query of both the join screen and the upgrade membership screen.
import { JoinOptionsDocument } from '../../../gql/graphql'

export const joinOptionsQuery = () => ({ query: JoinOptionsDocument, variables: {} })
