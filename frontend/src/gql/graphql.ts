/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type TenantConfigQueryVariables = Exact<{ [key: string]: never; }>;


export type TenantConfigQuery = { tenantConfig: unknown };

export type GemsBalanceQueryVariables = Exact<{ [key: string]: never; }>;


export type GemsBalanceQuery = { getGemsBalance: { daysUntilRefreshGems: number, payPerVideoCredits: number, gems: { lastAcknowledgementDate: string | null, hasNewGems: boolean, mayShowGemsModal: boolean }, wallet: { balance: { amount: number } } } };

export type TransactionsQueryVariables = Exact<{
  since?: string | null | undefined;
}>;


export type TransactionsQuery = { getTransactions: Array<{ amount: number, currency: string, createdAt: string, transactionType: string, transactionReason: string }> };

export type AcknowledgeNewGemsBalanceMutationVariables = Exact<{ [key: string]: never; }>;


export type AcknowledgeNewGemsBalanceMutation = { acknowledgeNewGemsBalance: { lastAcknowledgementDate: string | null } };


export const TenantConfigDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TenantConfig"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tenantConfig"}}]}}]} as unknown as DocumentNode<TenantConfigQuery, TenantConfigQueryVariables>;
export const GemsBalanceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GemsBalance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getGemsBalance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"daysUntilRefreshGems"}},{"kind":"Field","name":{"kind":"Name","value":"payPerVideoCredits"}},{"kind":"Field","name":{"kind":"Name","value":"gems"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastAcknowledgementDate"}},{"kind":"Field","name":{"kind":"Name","value":"hasNewGems"}},{"kind":"Field","name":{"kind":"Name","value":"mayShowGemsModal"}}]}},{"kind":"Field","name":{"kind":"Name","value":"wallet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GemsBalanceQuery, GemsBalanceQueryVariables>;
export const TransactionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Transactions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"getTransactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"transactionType"}},{"kind":"Field","name":{"kind":"Name","value":"transactionReason"}}]}}]}}]} as unknown as DocumentNode<TransactionsQuery, TransactionsQueryVariables>;
export const AcknowledgeNewGemsBalanceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AcknowledgeNewGemsBalance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acknowledgeNewGemsBalance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"lastAcknowledgementDate"}}]}}]}}]} as unknown as DocumentNode<AcknowledgeNewGemsBalanceMutation, AcknowledgeNewGemsBalanceMutationVariables>;