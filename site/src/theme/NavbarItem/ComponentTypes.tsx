import LogoutNavbarItem from '@site/src/components/Auth/LogoutNavbarItem';
import ComponentTypes from '@theme-original/NavbarItem/ComponentTypes';

export default {
  ...ComponentTypes,
  'custom-logout': LogoutNavbarItem,
};
