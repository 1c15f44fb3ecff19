import LogoutNavbarItem from '@site/src/components/Auth/LogoutNavbarItem';
import InsightsNavbarItem from '@site/src/components/Insights/InsightsNavbarItem';
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';

export default {
  ...ComponentTypes,
  'custom-insights': InsightsNavbarItem,
  'custom-logout': LogoutNavbarItem,
};
