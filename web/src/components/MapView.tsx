// A map of points with deck.gl (loaded lazily): OpenStreetMap raster tiles under a scatterplot; a click can pick a
// location. Tiles need the network; without it the points still show on a plain background.
import { useMemo, useState } from 'react';
import DeckGL from '@deck.gl/react';
import { BitmapLayer, ScatterplotLayer } from '@deck.gl/layers';
import { TileLayer } from '@deck.gl/geo-layers';

export const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

export interface MapPoint {
  id: number;
  name: string;
  longitude: number;
  latitude: number;
  color: string;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return Number.isNaN(n) ? [93, 168, 61] : [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export default function MapView({
  points,
  picked,
  onPick,
  height = 360,
}: {
  points: MapPoint[];
  picked?: [number, number] | null;
  onPick?: (longitude: number, latitude: number) => void;
  height?: number;
}) {
  const center = picked ?? (points[0] ? [points[0].longitude, points[0].latitude] : [20, 0]);
  const [view, setView] = useState({
    longitude: center[0],
    latitude: center[1],
    zoom: points.length > 0 || picked ? 4 : 1,
    pitch: 0,
    bearing: 0,
  });
  const layers = useMemo(
    () => [
      new TileLayer({
        id: 'tiles',
        data: TILE_URL,
        maxZoom: 19,
        tileSize: 256,
        renderSubLayers: (props) => {
          const { west, south, east, north } = (
            props.tile as unknown as { bbox: { west: number; south: number; east: number; north: number } }
          ).bbox;
          return new BitmapLayer({
            ...props,
            id: `${props.id}-bitmap`,
            data: undefined,
            image: props.data as never,
            bounds: [west, south, east, north],
          });
        },
      }),
      new ScatterplotLayer<MapPoint>({
        id: 'points',
        data: points,
        getPosition: (p) => [p.longitude, p.latitude],
        getFillColor: (p) => rgb(p.color),
        getRadius: 8,
        radiusUnits: 'pixels',
        stroked: true,
        getLineColor: [255, 255, 255],
        lineWidthMinPixels: 2,
        pickable: true,
      }),
      ...(picked
        ? [
            new ScatterplotLayer<[number, number]>({
              id: 'picked',
              data: [picked],
              getPosition: (p) => p,
              getFillColor: [220, 38, 38],
              getRadius: 9,
              radiusUnits: 'pixels',
            }),
          ]
        : []),
    ],
    [points, picked],
  );
  return (
    <div className="map" style={{ position: 'relative', height }} data-testid="map">
      <DeckGL
        viewState={view}
        onViewStateChange={({ viewState }) => setView(viewState as typeof view)}
        controller
        layers={layers}
        getTooltip={({ object }) => (object && 'name' in (object as object) ? (object as MapPoint).name : null)}
        onClick={(info) => {
          if (onPick && info.coordinate)
            onPick(Number(info.coordinate[0]!.toFixed(6)), Number(info.coordinate[1]!.toFixed(6)));
        }}
      />
    </div>
  );
}
