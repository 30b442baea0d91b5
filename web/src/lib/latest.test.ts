import { describe, expect, it } from 'vitest';
import { latestOnly } from './latest';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('latestOnly', () => {
  it('drops an older answer that arrives after a newer one', async () => {
    const answers = [deferred<string>(), deferred<string>()];
    let call = 0;
    const seen: string[] = [];
    const read = latestOnly(
      () => answers[call++]!.promise,
      (v) => seen.push(v),
    );
    read(); // reads "sending"
    read(); // reads "uploaded", after the change
    answers[1]!.resolve('uploaded');
    await answers[1]!.promise;
    answers[0]!.resolve('sending');
    await answers[0]!.promise;
    await Promise.resolve();
    expect(seen).toEqual(['uploaded']);
  });

  it('delivers every answer of calls made one after another', async () => {
    const seen: number[] = [];
    let n = 0;
    const read = latestOnly(
      () => Promise.resolve(++n),
      (v) => seen.push(v),
    );
    read();
    await Promise.resolve();
    await Promise.resolve();
    read();
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([1, 2]);
  });
});
