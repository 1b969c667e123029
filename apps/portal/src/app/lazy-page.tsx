import { type ComponentType, lazy } from 'react';

export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the page's chunk; after that the page renders without suspending. */
  preload(): Promise<void>;
}

/**
 * A route's page in its own chunk. The server preloads every page before rendering and the browser
 * preloads the current one before hydrating, so neither suspends on the first render; only later
 * client-side navigation to another page goes through React.lazy.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let Loaded: ComponentType | undefined;
  const Lazy = lazy(async () => {
    const module = await load();
    Loaded = module.default;
    return module;
  });
  // Called once per route at module level (routes.ts), so the component is stable.
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  Page.preload = async () => {
    Loaded ??= (await load()).default;
  };
  return Page;
}
