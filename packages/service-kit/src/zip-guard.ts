// Zip bombs: an XLSX workbook is a zip archive, and a few kilobytes of it can claim (or truly inflate to) gigabytes.
// Before a workbook reaches exceljs, its central directory is read with yauzl and every part inflated once, counting:
// too many parts, a part or the whole growing past a size limit, or a part that expands more than `maxRatio` times
// is refused. yauzl also checks that each part inflates to exactly the size its header claims, so a header cannot
// understate a part to slip past the limits. (The rules of Apache POI's ZipSecureFile; POI refuses parts expanding
// more than 100 times and its users meet false alarms on repetitive sheets, so workbooks may expand 250 times here.)
import yauzl from 'yauzl';

export interface ZipLimits {
  /** Most parts (files) in the archive. */
  maxEntries: number;
  /** Most bytes any one part may inflate to. */
  maxEntryBytes: number;
  /** Most bytes all parts together may inflate to. */
  maxTotalBytes: number;
  /** Most a part larger than 1 MiB may expand (uncompressed / compressed). */
  maxRatio: number;
}

export const XLSX_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 1024 ** 3,
  maxTotalBytes: 2 * 1024 ** 3,
  maxRatio: 250,
};

/**
 * Sees the inflated bytes of one part as checkZip inflates it (so a caller can count what is inside without a second
 * pass). An error thrown by `write` or `end` stops the check and is what checkZip rejects with.
 */
export interface PartReader {
  write(chunk: Buffer): void;
  end(): void;
}

/** An archive refused by the limits, or not a readable zip; the message says which and why, for the user. */
export class UnsafeZip extends Error {
  override name = 'UnsafeZip';
}

const mb = (n: number) => `${(n / 1024 ** 2).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

function open(source: string | Buffer): Promise<yauzl.ZipFile> {
  const options = { lazyEntries: true, autoClose: true, validateEntrySizes: true, decodeStrings: true };
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: yauzl.ZipFile) =>
      err || !zip ? reject(new UnsafeZip('The file is not a readable XLSX workbook.')) : resolve(zip);
    if (typeof source === 'string') yauzl.open(source, options, done);
    else yauzl.fromBuffer(source, options, done);
  });
}

/**
 * Inflates every part of the archive once within the limits; throws UnsafeZip when a limit is passed. `read` may
 * return a reader for a part (by its name) that sees its bytes as they are inflated.
 */
export async function checkZip(
  source: string | Buffer,
  limits: ZipLimits = XLSX_LIMITS,
  read?: (fileName: string) => PartReader | undefined,
): Promise<{ entries: number; bytes: number }> {
  const zip = await open(source);
  let entries = 0;
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const refuse = (why: string) =>
        reject(
          new UnsafeZip(
            `The workbook was refused: ${why}. A workbook this large or this compressed is not a spreadsheet export (it may be a zip bomb).`,
          ),
        );
      zip.on('error', () => reject(new UnsafeZip('The file is not a readable XLSX workbook.')));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries++;
        if (entries > limits.maxEntries)
          return refuse(`it holds more than ${limits.maxEntries.toLocaleString('en')} parts`);
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        const declared = entry.uncompressedSize;
        if (declared > limits.maxEntryBytes)
          return refuse(`${entry.fileName} would expand to ${mb(declared)} (at most ${mb(limits.maxEntryBytes)})`);
        if (total + declared > limits.maxTotalBytes)
          return refuse(`it would expand to more than ${mb(limits.maxTotalBytes)}`);
        if (declared > 1024 ** 2 && declared / Math.max(1, entry.compressedSize) > limits.maxRatio) {
          return refuse(
            `${entry.fileName} expands ${Math.round(declared / Math.max(1, entry.compressedSize))} times (at most ${limits.maxRatio})`,
          );
        }
        let reader: PartReader | undefined;
        try {
          reader = read?.(entry.fileName);
        } catch (e) {
          return reject(e as Error);
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(new UnsafeZip('The file is not a readable XLSX workbook.'));
          let bytes = 0;
          stream.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > limits.maxEntryBytes || total + bytes > limits.maxTotalBytes) {
              stream.destroy();
              return refuse(`it would expand to more than ${mb(Math.min(limits.maxEntryBytes, limits.maxTotalBytes))}`);
            }
            try {
              reader?.write(chunk);
            } catch (e) {
              stream.destroy();
              reject(e as Error);
            }
          });
          // yauzl fails the stream when a part inflates to more or less than its header says.
          stream.on('error', (e: Error) =>
            reject(
              new UnsafeZip(`The workbook was refused: ${entry.fileName} is not what its header says (${e.message}).`),
            ),
          );
          stream.on('end', () => {
            total += bytes;
            try {
              reader?.end();
            } catch (e) {
              return reject(e as Error);
            }
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return { entries, bytes: total };
}
