// Hash routing (#/apis/<id>): the server serves one page at /, so every view is a fragment and reloads keep it.
import { useEffect, useState } from 'preact/hooks';

export function currentRoute(): string[] {
  return window.location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = (): void => setRoute(currentRoute());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function navigate(...parts: string[]): void {
  window.location.hash = href(...parts);
}
