// Reads a form file into a sampler schema: a CSV question list, an XLSX question list, or an XLSForm. The heavy part
// of a conversion, run in a conversion worker (conversion.worker.ts), never on the service's event loop; the file is
// checked against the form limits (form-limits.ts) before exceljs loads it.
import { problems } from '@fieldwork/service-kit/problems';
import { ConversionRefused, type Converted } from '../domain/convert.js';
import { convertUpload, uploadKind } from '../domain/workbook.js';
import { checkFormSize, checkRecords, checkWorkbook, FORM_LIMITS, type FormLimits } from './form-limits.js';

export interface ConvertedFile {
  format: string;
  converted: Converted;
}

/**
 * Reads a CSV question list, an XLSX question list, or an XLSForm (an XLSX with a "survey" sheet; domain/workbook.ts),
 * within the form limits; the form made is refused when it is too large to be loaded again.
 */
export async function convertFile(filename: string, content: Buffer, projectType: string, limits: FormLimits = FORM_LIMITS): Promise<ConvertedFile> {
  let made: ConvertedFile;
  try {
    const kind = uploadKind(filename, content);
    // Zip bomb, sheets, rows, columns and cell text, read as a stream before exceljs holds the workbook in memory.
    if (kind === 'xlsx') await checkWorkbook(content, limits);
    made = await convertUpload(kind, content, projectType, (sheet) =>
      checkRecords(
        sheet.rows.map((r) => Object.fromEntries(r.values.map((v, i) => [String(i), v]))),
        limits,
      ),
    );
  } catch (err) {
    if (err instanceof ConversionRefused) throw problems.invalid(err.message);
    throw err;
  }
  checkFormSize(made.converted.body, limits);
  for (const level of made.converted.levels ?? []) checkFormSize(level.body, limits);
  return made;
}
