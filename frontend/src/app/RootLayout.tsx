import { Outlet, useNavigation } from 'react-router'

export function RootLayout() {
  const navigation = useNavigation()
  return (
    <div aria-busy={navigation.state === 'loading'}>
      <Outlet />
    </div>
  )
}
