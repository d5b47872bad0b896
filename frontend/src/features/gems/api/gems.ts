// The gems and wallet reads and the acknowledgement of new gems (account-payments-gems.md §7).
import { graphql } from '../../../gql'

export const GemsBalanceQuery = graphql(`
  query GemsBalance {
    getGemsBalance {
      daysUntilRefreshGems
      payPerVideoCredits
      gems {
        lastAcknowledgementDate
        hasNewGems
        mayShowGemsModal
      }
      wallet {
        balance {
          amount
        }
      }
    }
  }
`)

export const TransactionsQuery = graphql(`
  query Transactions($since: DateTime) {
    getTransactions(since: $since) {
      amount
      currency
      createdAt
      transactionType
      transactionReason
    }
  }
`)

export const AcknowledgeNewGemsBalanceMutation = graphql(`
  mutation AcknowledgeNewGemsBalance {
    acknowledgeNewGemsBalance {
      lastAcknowledgementDate
    }
  }
`)
