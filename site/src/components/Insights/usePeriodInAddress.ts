import { type InsightsPeriod, insightsPeriods } from '@acme/contract';
import { useHistory, useLocation } from '@docusaurus/router';
import { useEffect } from 'react';

/** The period the page shows when its address names none, or one the API does not take. */
export const defaultInsightsPeriod: InsightsPeriod = 30;

/** The period an address's query names (`?days=7`, the values `/api/insights` takes), or null for none of them. */
export function periodInAddress(search: string): InsightsPeriod | null {
  const days = new URLSearchParams(search).get('days');
  return insightsPeriods.find((period) => String(period) === days) ?? null;
}

/** The query with `days` set to a period, or dropped for null; whatever else the address asks is kept. */
export function queryWithPeriod(search: string, days: InsightsPeriod | null): string {
  const parameters = new URLSearchParams(search);
  if (days === null) parameters.delete('days');
  else parameters.set('days', String(days));
  const query = parameters.toString();
  return query ? `?${query}` : '';
}

/**
 * The insights period kept in the page's address, so a reload or a shared link opens it, and a way to choose another.
 * Choosing replaces the address rather than adding to the history: a period is a view of the same page, and Back
 * should leave the insights for where the maintainer was before, not step back through every period tried (as
 * analytics dashboards do). A period the API does not take shows the default and is dropped from the address.
 */
export function usePeriodInAddress(): [InsightsPeriod, (days: InsightsPeriod) => void] {
  const location = useLocation();
  const history = useHistory();
  const named = periodInAddress(location.search);
  const namesUnknownPeriod = named === null && new URLSearchParams(location.search).has('days');
  useEffect(() => {
    if (namesUnknownPeriod) history.replace({ ...location, search: queryWithPeriod(location.search, null) });
  }, [namesUnknownPeriod, history, location]);
  const choose = (days: InsightsPeriod) =>
    history.replace({ ...location, search: queryWithPeriod(location.search, days) });
  return [named ?? defaultInsightsPeriod, choose];
}
