import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { checkZip, UnsafeZip, XLSX_LIMITS, type ZipLimits } from './zip-guard.js';

interface Part {
  name: string;
  data: Buffer;
  /** The uncompressed size the headers claim (a lie when it differs from data.length). */
  claims?: number;
}

/** A zip archive written by hand, so that a test can make its headers lie. */
function zip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const packed = deflateRawSync(p.data);
    const size = p.claims ?? p.data.length;
    const crc = crc32(p.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const small: ZipLimits = { maxEntries: 50, maxEntryBytes: 8 * 1024 ** 2, maxTotalBytes: 16 * 1024 ** 2, maxRatio: 100 };

describe('checkZip', () => {
  it('passes a real workbook and says how much it holds', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Data');
    ws.addRow(['name', 'count']);
    for (let i = 0; i < 2000; i++) ws.addRow([`row ${i}`, i]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const seen = await checkZip(file);
    expect(seen.entries).toBeGreaterThan(5);
    expect(seen.bytes).toBeGreaterThan(file.length);
  });

  it('refuses a part that expands more than 250 times (4 KB of zip for 16 MB of zeros)', async () => {
    const bomb = zip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(16 * 1024 ** 2) }]);
    expect(bomb.length).toBeLessThan(50_000);
    await expect(checkZip(bomb, XLSX_LIMITS)).rejects.toThrow(/sheet1\.xml expands \d+ times \(at most 250\)/);
  });

  it('refuses a part whose header understates its size, once it inflates past what it claims', async () => {
    const liar = zip([{ name: 'xl/sharedStrings.xml', data: Buffer.alloc(4 * 1024 ** 2, 'a'), claims: 1000 }]);
    await expect(checkZip(liar, small)).rejects.toThrow(/sharedStrings\.xml is not what its header says/);
  });

  it('refuses archives that expand past the total, or hold too many parts', async () => {
    const parts = Array.from({ length: 20 }, (_, i) => ({
      name: `xl/part${i}.xml`,
      data: Buffer.from(randomBytes(450_000).toString('hex')),
    })); // 900 KB each, hardly compressible: only the total is past
    await expect(checkZip(zip(parts), small)).rejects.toThrow(/would expand to more than 16 MB/);
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `p${i}.xml`, data: Buffer.from('<a/>') }));
    await expect(checkZip(zip(many), small)).rejects.toThrow(/more than 50 parts/);
  });

  it('refuses what is not a zip at all', async () => {
    const err = await checkZip(Buffer.from('name,count\nx,1\n')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnsafeZip);
    expect((err as Error).message).toBe('The file is not a readable XLSX workbook.');
  });
});
