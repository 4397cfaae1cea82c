import { useEffect, useState } from 'preact/hooks';

// The console's place lives in the hash (#/queue?space=main): the path stays /app, the one
// redirect_uri the provider accepts, and filters survive a reload or a shared link.

export interface Place {
  screen: string;
  arg: string | undefined;
  query: URLSearchParams;
}

export function parsePlace(hash: string = location.hash): Place {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [screen = '', arg] = path.split('/');
  return { screen, arg: arg === undefined ? undefined : decodeURIComponent(arg), query: new URLSearchParams(search) };
}

export function go(screen: string, arg?: string, query?: URLSearchParams): void {
  const q = query && [...query].length > 0 ? `?${query}` : '';
  location.hash = `#/${screen}${arg === undefined ? '' : `/${encodeURIComponent(arg)}`}${q}`;
}

/** Rewrites the query without adding a history step (filters typed letter by letter). */
export function replaceQuery(query: URLSearchParams): void {
  const p = parsePlace();
  const q = [...query].filter(([, v]) => v !== '').length > 0 ? `?${new URLSearchParams([...query].filter(([, v]) => v !== ''))}` : '';
  history.replaceState(null, '', `/app#/${p.screen}${p.arg === undefined ? '' : `/${encodeURIComponent(p.arg)}`}${q}`);
}

/** The queue's filters as the reviewer left them, so that a row's actions and links return to the same queue. */
let queueQuery = new URLSearchParams();

export function rememberQueue(query: URLSearchParams): void {
  queueQuery = new URLSearchParams(query);
}

export function queueHref(): string {
  return `#/queue${[...queueQuery].length > 0 ? `?${queueQuery}` : ''}`;
}

export function backToQueue(): void {
  go('queue', undefined, queueQuery);
}

/** Where a notice belongs: a screen and its argument, not the query (a filter typed does not move the reader). */
export const placeKey = (p: Place): string => `${p.screen}/${p.arg ?? ''}`;

export function usePlace(): Place {
  const [place, setPlace] = useState(parsePlace);
  useEffect(() => {
    const on = () => setPlace(parsePlace());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return place;
}
