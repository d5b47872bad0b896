// The floor of the home route's budget: an empty React + react-router (data router) + Apollo Client app, with
// nothing of ours. bench:size builds it in the same run as the app and compares their initial JS.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client'
import { ApolloProvider, useQuery } from '@apollo/client/react'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter } from 'react-router'
import { RouterProvider } from 'react-router/dom'

const client = new ApolloClient({ link: new HttpLink({ uri: '/graphql' }), cache: new InMemoryCache() })
const Hello = gql`
  query Hello {
    tenantConfig
  }
`

function Home() {
  const { data } = useQuery(Hello)
  return <p>{JSON.stringify(data ?? null)}</p>
}

const router = createBrowserRouter([{ path: '/', loader: () => null, Component: Home }])

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApolloProvider client={client}>
      <RouterProvider router={router} />
    </ApolloProvider>
  </StrictMode>,
)
