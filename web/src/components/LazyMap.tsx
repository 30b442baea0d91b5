// deck.gl is heavy: the map loads only when a screen shows it.
import { lazy, Suspense, type ComponentProps } from 'react';

const MapView = lazy(() => import('./MapView'));

export function LazyMap(props: ComponentProps<typeof MapView>) {
  return (
    <Suspense fallback={<div className="map loading" style={{ height: props.height ?? 360 }} />}>
      <MapView {...props} />
    </Suspense>
  );
}
