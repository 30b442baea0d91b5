// A response in one line: its first few plain answers.
import type { Answers } from '@fieldwork/sampler';

export function answersSummary(data: Record<string, Answers>): string {
  const values = Object.values(data['0'] ?? {}).filter((v) => typeof v === 'string' || typeof v === 'number');
  return values.slice(0, 3).join(' · ') || '—';
}
