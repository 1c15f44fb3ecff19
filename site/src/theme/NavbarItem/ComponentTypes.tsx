import LogoutNavbarItem from '@site/src/components/Auth/LogoutNavbarItem';
import InsightsNavbarItem from '@site/src/components/Insights/InsightsNavbarItem';
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';
import StartHereNavbarItem from './StartHereNavbarItem';

export default {
  ...ComponentTypes,
  'custom-insights': InsightsNavbarItem,
  'custom-logout': LogoutNavbarItem,
  'custom-start-here': StartHereNavbarItem,
};
