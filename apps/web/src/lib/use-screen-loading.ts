import { useLocation, useNavigation } from 'react-router';

/**
 * Whether the open screen is reading another view of itself (another day, another page of a list): its loader
 * runs for the new address while the old view is still shown. A live re-read is not this (nothing is said then).
 */
export function useScreenLoading(): boolean {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  return navigation.state === 'loading' && navigation.location.pathname === pathname;
}
