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

export function usePlace(): Place {
  const [place, setPlace] = useState(parsePlace);
  useEffect(() => {
    const on = () => setPlace(parsePlace());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return place;
}
