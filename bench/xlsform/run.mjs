#!/usr/bin/env node
// XLSForm conversion benchmark (issue 23): time to read and convert generated XLSForms of 500 to 20,000 survey rows,
// in the converter alone (no gateway, no worker, no database), or with --api through the API on a whole stack
// (upload + create-form-from-upload), with a light forms call of another project timed beside the largest.
// Build first: `pnpm run build`.
//   full:   node bench/xlsform/run.mjs            API: node bench/xlsform/run.mjs --api  (records docs/benchmarks.md)
//   smoke:  node bench/xlsform/run.mjs --smoke    API: node bench/xlsform/run.mjs --api --smoke
//   before: BEFORE=/path/to/other/checkout node bench/xlsform/run.mjs   (times that checkout's convertFile too)
import { fileURLToPath } from 'node:url';
import { cpus, totalmem, release } from 'node:os';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { default: ExcelJS } = await import(join(root, 'services/forms/node_modules/exceljs/excel.js'));
const { convertUpload, sheetOf } = await import(join(root, 'services/forms/dist/domain/workbook.js'));
const { fromXlsForm } = await import(join(root, 'services/forms/dist/domain/xlsform.js'));
const smoke = process.argv.includes('--smoke');
const SIZES = smoke ? [500] : [500, 1000, 5000, 20000];

/** A survey of `n` rows like a long household questionnaire: groups of 50 rows, selects, numbers with constraints,
 * hints, relevance and calculations within their group. */
async function workbook(n, variant = 2) {
  const wb = new ExcelJS.Workbook();
  const survey = wb.addWorksheet('survey');
  survey.addRow([
    'type',
    'name',
    'label::English (en)',
    'label::French (fr)',
    'hint::English (en)',
    'required',
    'constraint',
    'relevant',
    'calculation',
  ]);
  let rows = 0;
  for (let g = 0; rows < n; g++) {
    survey.addRow(['begin group', `g${g}`, `Group ${g}`, `Groupe ${g}`]);
    rows++;
    for (let k = 0; k < 46 && rows < n - 1; k++, rows++) {
      const q = `q${g}_${k}`;
      switch (k % 6) {
        case 0:
          survey.addRow(['integer', q, `How many ${q}?`, `Combien ${q} ?`, 'A count', 'yes', '. >= 0 and . <= 500']);
          break;
        case 1:
          survey.addRow(['select_one yn', q, `Is ${q} so?`, `Est-ce ${q} ?`, '', 'true()']);
          break;
        case 2:
          survey.addRow([
            'text',
            q,
            `Why ${q}?`,
            `Pourquoi ${q} ?`,
            '',
            '',
            'string-length(.) <= 200',
            `\${q${g}_${k - 1}} = 'yes'`,
          ]);
          break;
        case 3:
          survey.addRow(['calculate', q, '', '', '', '', '', '', `\${q${g}_${k - 3}} * ${variant} + 1`]);
          break;
        case 4:
          survey.addRow([
            'select_multiple crops',
            q,
            `Crops ${q}`,
            `Cultures ${q}`,
            'All that apply',
            '',
            'count-selected(.) <= 3',
          ]);
          break;
        default:
          survey.addRow(['note', q, `Thank you ${q}`, `Merci ${q}`]);
      }
    }
    survey.addRow(['end group']);
    rows++;
  }
  const choices = wb.addWorksheet('choices');
  choices.addRow(['list_name', 'name', 'label::English (en)', 'label::French (fr)']);
  choices.addRow(['yn', 'yes', 'Yes', 'Oui']);
  choices.addRow(['yn', 'no', 'No', 'Non']);
  for (const c of ['maize', 'beans', 'rice', 'cassava', 'sorghum', 'millet']) choices.addRow(['crops', c, c, c]);
  wb.addWorksheet('settings').addRows([
    ['form_title', 'default_language'],
    ['Bench', 'English (en)'],
  ]);
  return { buffer: Buffer.from(await wb.xlsx.writeBuffer()), rows };
}

if (process.argv.includes('--api')) {
  const { runApi } = await import('./api.mjs');
  process.exit(await runApi(workbook, SIZES, smoke));
}

const before = process.env.BEFORE
  ? await import(join(process.env.BEFORE, 'services/forms/dist/service/document.service.js'))
  : undefined;
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}`,
);
console.log(
  '| survey rows | file | read + convert | convert alone | questions | losses |' +
    (before ? ' before: read + convert |' : ''),
);
console.log('|---:|---:|---:|---:|---:|---:|' + (before ? '---:|' : ''));
for (const n of SIZES) {
  const { buffer, rows } = await workbook(n);
  let t = performance.now();
  const { converted } = await convertUpload('xlsx', buffer, 'S');
  const total = performance.now() - t;
  // The converter alone, on sheets already read; formulas differ from the first workbook's, so that the formula
  // compiler's cache (2,000 entries) helps neither run.
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await workbook(n, 3)).buffer);
  const sheets = {
    survey: sheetOf(wb.getWorksheet('survey')),
    choices: sheetOf(wb.getWorksheet('choices')),
    settings: sheetOf(wb.getWorksheet('settings')),
  };
  t = performance.now();
  fromXlsForm(sheets, 'S');
  const alone = performance.now() - t;
  let old = '';
  if (before && n <= 2000) {
    t = performance.now();
    await before.convertFile('bench.xlsx', buffer, 'S');
    old = ` ${((performance.now() - t) / 1000).toFixed(2)} s |`;
  } else if (before) old = ' not run (quadratic) |';
  console.log(
    `| ${rows.toLocaleString('en')} | ${Math.round(buffer.length / 1024)} KB | ${(total / 1000).toFixed(2)} s | ${(alone / 1000).toFixed(3)} s | ${converted.questions.toLocaleString('en')} | ${converted.notes.length} |${old}`,
  );
}
console.log(
  '\nReproduce: pnpm run build && node bench/xlsform/run.mjs   (BEFORE=<checkout of main, built> adds the old converter)',
);
