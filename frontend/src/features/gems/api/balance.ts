// The gems balance query on its own: main.tsx asks it before opening the gems modal. A build names every module the
// entry imports statically as the entry's, so importing gems.ts there put all of that file's documents (the gems
// modals' mutations and queries) into the entry.
export { GemsBalanceDocument as GemsBalanceQuery } from '../../../gql/graphql'
