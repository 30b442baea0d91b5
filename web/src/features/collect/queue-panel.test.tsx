// The queue's "Send now" button follows the network: disabled offline, usable again the moment the network returns
// (it read navigator.onLine once per render, so it stayed disabled until something else redrew the list).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/render';
import type { LocalResponse } from './localStore';
import { QueuePanel } from './QueuePanel';

const waiting: LocalResponse = {
  response_id: '1-1-device-1',
  project: 1,
  sampler_schema: 1,
  device_id: 'device',
  data: {},
  completed: true,
  is_valid: true,
  time_created: '2026-11-26T10:00:00.000Z',
  time_updated: '2026-11-26T10:00:00.000Z',
  time_uploaded: null,
  sync: 'pending',
  user: 7,
};

function network(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => void window.dispatchEvent(new Event(online ? 'online' : 'offline')));
}

afterEach(() => vi.restoreAllMocks());

describe('QueuePanel', () => {
  it('enables "Send now" when the network comes back, and disables it when it goes', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithProviders(<QueuePanel projectId={1} unsent={[waiting]} />);
    const send = screen.getByTestId('send-all');
    expect(send).toBeDisabled();
    network(true);
    expect(send).toBeEnabled();
    network(false);
    expect(send).toBeDisabled();
  });
});
