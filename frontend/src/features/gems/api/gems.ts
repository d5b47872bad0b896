// The gems and wallet operations (gems.graphql), typed by codegen. Documents are imported from gql/graphql, never
// through the graphql() map of gql/gql.ts, which would put every operation of the app into each chunk that uses one.
export {
  AcknowledgeGemsIntroDocument as AcknowledgeGemsIntroMutation,
  AcknowledgeNewGemsBalanceDocument as AcknowledgeNewGemsBalanceMutation,
  ChannelPackCostDocument as ChannelPackCostQuery,
  TransactionsDocument as TransactionsQuery,
  UnlockChannelPackDocument as UnlockChannelPackMutation,
} from '../../../gql/graphql'
export { GemsBalanceQuery } from './balance'
