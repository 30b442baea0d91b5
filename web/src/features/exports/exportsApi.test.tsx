import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { session } from '../../app/session';
import { json, renderWithProviders } from '../../test/render';
import { JOB_POLL_MS, useJobProgress, type Job } from './exportsApi';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const job = (status: Job['status'], rows_done: number): Job => ({
  id: 'j1',
  kind: 'named_csv',
  status,
  rows_done,
  rows_total: 10,
  percent: rows_done * 10,
  url: status === 'done' ? '/files/x.csv' : null,
  report_url: null,
  rows_failed: 0,
  result: {},
  error: '',
});

function Progress({ id }: { id: string | null }) {
  const { data } = useJobProgress(id);
  return <p data-testid="job">{data ? `${data.status} ${data.rows_done}` : 'none'}</p>;
}

describe(useJobProgress.name, () => {
  it('polls a running job until it ends, then stops', async () => {
    session.store('a', 'r', Date.now());
    const answers = [job('queued', 0), job('running', 5), job('done', 10)];
    fetchMock.mockImplementation(async () => json(200, answers.shift() ?? job('done', 10)));
    renderWithProviders(<Progress id="j1" />);
    await waitFor(() => expect(screen.getByTestId('job').textContent).toBe('done 10'), { timeout: 5 * JOB_POLL_MS });
    const calls = fetchMock.mock.calls.length;
    expect(calls).toBe(3);
    await new Promise((r) => setTimeout(r, 2.5 * JOB_POLL_MS));
    expect(fetchMock.mock.calls.length).toBe(calls);
  }, 15_000);

  it('reads nothing without a job', async () => {
    renderWithProviders(<Progress id={null} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('job').textContent).toBe('none');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
