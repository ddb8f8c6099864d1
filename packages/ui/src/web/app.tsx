import { useEffect, useState } from 'preact/hooks';
import { RUN_VIEWS, type RunViewName } from '../protocol.js';
import { RunView } from './run-view.js';
import { RunsView } from './runs-view.js';
import type { Toast } from './ui-context.js';

type Route = { view: 'runs' } | { view: 'run'; source: string; runId: string; tab: RunViewName };

function parseRoute(hash: string): Route {
  const match = /^#\/run\/([a-z-]+)\/([^/]+)(?:\/([a-z]+))?$/.exec(hash);
  if (match === null) return { view: 'runs' };
  const tab = (RUN_VIEWS as readonly string[]).includes(match[3] ?? '')
    ? (match[3] as RunViewName)
    : 'board';
  return { view: 'run', source: match[1] ?? '', runId: decodeURIComponent(match[2] ?? ''), tab };
}

type Theme = 'light' | 'dark';

function initialTheme(): Theme {
  const saved = localStorage.getItem('teamkit-theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The whole page: a top bar, the routed view, and the toasts of actions. */
export function App() {
  const [route, setRoute] = useState<Route>(() => parseRoute(location.hash));
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [toasts, setToasts] = useState<Toast[]>([]);

  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  const toast = (kind: Toast['kind'], text: string) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-3), { id, kind, text }]);
    setTimeout(
      () => setToasts((list) => list.filter((entry) => entry.id !== id)),
      kind === 'error' ? 12_000 : 4_000,
    );
  };

  return (
    <>
      <header class="topbar">
        <a class="brand" href="#/">
          Teamkit
        </a>
        <a href="#/">Runs</a>
        <span class="spacer" />
        <button
          type="button"
          class="ghost"
          aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
          onClick={() => {
            const next = theme === 'dark' ? 'light' : 'dark';
            localStorage.setItem('teamkit-theme', next);
            setTheme(next);
          }}
        >
          {theme === 'dark' ? 'Light' : 'Dark'} theme
        </button>
      </header>
      {route.view === 'runs' ? (
        <RunsView />
      ) : (
        <RunView
          key={`${route.source}/${route.runId}`}
          source={route.source}
          runId={route.runId}
          tab={route.tab}
          toast={toast}
        />
      )}
      <div class="toasts" aria-live="polite">
        {toasts.map((entry) => (
          <div
            key={entry.id}
            class={`toast ${entry.kind}`}
            role={entry.kind === 'error' ? 'alert' : 'status'}
          >
            {entry.text}
            <button
              type="button"
              class="ghost"
              aria-label="Dismiss"
              onClick={() => setToasts((list) => list.filter((other) => other.id !== entry.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </>
  );
}
