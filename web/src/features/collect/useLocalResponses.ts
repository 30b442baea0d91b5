// The device's responses of a project (the queue and what was uploaded from here), read again on every local change.
import { useEffect, useState } from 'react';
import { latestOnly } from '../../lib/latest';
import { localStore, needsUpload, onLocalChange, type LocalResponse } from './localStore';

export function useLocalResponses(projectId: number): {
  all: LocalResponse[];
  unsent: LocalResponse[];
  loaded: boolean;
} {
  const [all, setAll] = useState<LocalResponse[]>([]);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    // Only the newest read counts: two reads may finish out of order (lib/latest.ts).
    const read = latestOnly(
      () => localStore.byProject(projectId),
      (rows) => {
        if (!live) return;
        setAll(rows.sort((a, b) => b.time_updated.localeCompare(a.time_updated)));
        setLoaded(true);
      },
    );
    read();
    const stop = onLocalChange(read);
    return () => {
      live = false;
      stop();
    };
  }, [projectId]);
  return { all, unsent: all.filter((r) => needsUpload(r)), loaded };
}
