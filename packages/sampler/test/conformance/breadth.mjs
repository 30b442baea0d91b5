// The breadth cases of the conformance table: every function and operator of the formula language over a pool of
// arguments (numbers of every sign and size, text that is and is not a number, logicals, empty text, the question
// references of the table's context, unanswered questions, error values, empty arguments). Only the formulas are
// written here: their expected values are LibreOffice Calc's (libreoffice-results.json, recorded by
// check-libreoffice.py --record), except where Excel's documentation or the spec says otherwise (DIFFERENCES in
// generate.mjs, each with its source).

const NUMS = ['0', '1', '-1', '2.5', '-2.5', '0.5', '3', '7', '-7', '10', '100', '0.001', '123.456', '-0.125', '1e10', '99.99'];
const TEXT_NUMS = ['"3"', '"-2.5"', '"1e2"'];
const TEXTS = ['"abc"', '""', '"Nairobi"', '"a b"'];
const LOGICALS = ['TRUE', 'FALSE'];
const REFS = ['Q1_1', 'Q1_2', 'Q1_3', 'Q1_4', 'Q1_5', 'Q2_1'];
const ERRORS = ['1/0', 'SQRT(-1)', 'Q9_1'];
/** Every kind of argument once or more: what a one-argument function is tried with. */
const POOL = [...NUMS, ...TEXT_NUMS, ...TEXTS, ...LOGICALS, ...REFS, ...ERRORS];

const neg = (x) => (x.startsWith('-') ? `(${x})` : x);

function unary(name, pool = POOL) {
  return pool.map((x) => `${name}(${x})`);
}

function pairs(name, xs, ys) {
  return xs.flatMap((x) => ys.map((y) => `${name}(${x},${y})`));
}

function infix(op, xs, ys) {
  return xs.flatMap((x) => ys.map((y) => `${neg(x)}${op}${neg(y)}`));
}

/** Lists of one to four arguments from the pool, as an aggregate takes them. */
function lists(name) {
  const one = POOL.map((x) => `${name}(${x})`);
  const mixed = [
    '1,2,3',
    '-1,-2,-3',
    '0.5,0.25,0.125',
    '1e10,1,-1e10',
    '3,"4",5',
    '1,TRUE,FALSE',
    'Q1_1,Q1_2,Q1_5',
    'Q1_*',
    'Q1_*,100',
    'Q1_3,Q1_4',
    'Q1_1,Q1_4',
    'Q1_1,1/0',
    '2.5,2.5,2.5,2.5',
    '10,-10',
    '7,,3',
    'Q1_2,-Q1_2',
    '1,2,3,4,5,6,7,8,9,10',
  ].map((args) => `${name}(${args})`);
  return [...one, ...mixed];
}

const ROUND_X = ['0', '1.5', '-1.5', '2.345', '-2.345', '1234.5678', '-0.05', '0.0049', '99999.5', '1e-5', 'Q1_5', '"2.5"'];
const ROUND_N = ['0', '1', '2', '-1', '-2', '3', '0.9', '-0.9'];

const STRINGS = ['"Fieldwork"', '"abc"', '""', '"a b c"', '12345', '-1.5', 'Q1_3', 'Q1_4', 'Q1_1', '"é ü ß"', '"  x  "', '1/0'];
const COUNTS = ['0', '1', '2', '4', '9', '20', '1.9', '"2"', 'Q1_2', '-1'];

const DATES = ['1', '59', '61', '366', '3000', '36526', '43831', '45000', '45351', '2958465', '45000.75', 'Q2_1', '"2024-02-29"', '"2023-12-31"', '"1999-01-01"', '"2000-02-29"', '"abc"', '0.5', 'Q1_4', '1/0', '"45000"'];

const DATEDIF_FROM = ['"2020-01-31"', '"2019-05-15"', '"2024-02-29"', '36526', 'Q2_1', '"2000-12-31"'];
const DATEDIF_TO = ['"2020-03-01"', '"2021-05-14"', '"2025-02-28"', '45000', '"2024-12-31"'];
const UNITS = ['"Y"', '"M"', '"D"', '"YM"', '"YD"', '"MD"', '"y"'];

/** The breadth formulas, grouped by what they exercise. */
export function breadth() {
  const out = [];
  // Operators
  const opX = ['0', '1', '-1', '2.5', '-3', '10', '0.5', '"4"', 'TRUE', 'Q1_1', 'Q1_4', '"abc"', '1/0'];
  const opY = ['0', '2', '-0.5', '3', '"2"', 'FALSE', 'Q1_2', 'Q1_4', '""'];
  for (const op of ['+', '-', '*', '/']) out.push(...infix(op, opX, opY));
  out.push(...infix('^', ['0', '1', '2', '-2', '0.5', '10', '-8', 'Q1_2', '"3"', 'TRUE', 'Q1_4'], ['0', '1', '2', '3', '0.5', '-1', '-2', '"2"', 'Q1_4']));
  const cmpNums = ['0', '1', '-1', '2.5', '1e10', 'Q1_1', 'Q1_4'];
  const cmpText = ['"a"', '"B"', '"ab"', '"10"', '"9"', '""', 'Q1_3', '"nairobi"', '"Á"', '"b"'];
  for (const op of ['=', '<>', '<', '>', '<=', '>=']) {
    out.push(...infix(op, cmpNums, ['0', '1', '2.5', 'Q1_2']));
    out.push(...infix(op, cmpText, ['"a"', '"b"', '"10"', 'Q1_3', '""']));
    out.push(`1/0${op}1`, `1${op}SQRT(-1)`, `(1+1${op}2)+0`, `0.1*3${op}0.3`);
  }
  out.push(...infix('&', ['"a"', '1', '-2.5', '0.1', '1e10', '123456789', 'Q1_3', 'Q1_4', '""', '"3"'], ['"b"', '2', '0.25', 'Q1_1', 'Q1_5', '""', '"x y"']));
  out.push('1/0&"x"', '"x"&SQRT(-1)', '1&2&3', '"a"&"b"&"c"', '(1&2)+1', '"1"&"2"*2', '1/3&""', '1/7&""', '2^0.5&""', '1e-5&""', '0.1+0.2&""', '-1e-7&""');
  for (const x of ['1', '50', '-25', '0', '0.5', '1e3', 'Q1_1', '"20"', '(1+1)', '2^2']) out.push(`${x}%`);
  out.push('50%*2', '10%+1', '100%%', '(50)%%', '-5%', '2^100%', '1/4%', '0.5%', '12.5%', 'Q1_5%', 'Q1_4%', '"abc"%', 'TRUE%');
  out.push('(1/0)%', 'SUM(50%,50%)', '-(-50)%', '3^200%', '"5"%&""', 'Q1_1%*Q1_2', '200%-100%', 'IF(50%=0.5,"same","no")');
  for (const x of ['1', '-1', '0', '2.5', '"3"', 'Q1_1', 'Q1_4', '(1-3)', '--2', '2^2']) out.push(`-${x}`, `+${x}`, `-${x}*2`, `3-${x}`);
  out.push('2+3*4', '2*3+4', '2-3-4', '2/3/4', '2^3^2', '2+3^2', '-3^2', '2*-3', '2^-2', '1+2&3+4', '1+2=3', '1<2<3', '(1<2)<3', '5-2*3^2/6', '8/2/2*4', '((((1))))+((2))', '10-2-3-4-1', '3^2*2^3', '1-1+1-1+1');

  // Numbers
  for (const name of ['INT', 'ABS', 'SQRT', 'EXP', 'LN', 'LOG10']) out.push(...unary(name));
  out.push(...unary('LOG'));
  out.push(...pairs('LOG', ['1', '2', '8', '100', '1000', '0.5', '10', '-1', '0', 'Q1_1', '"16"'], ['2', '10', '0.5', '3', '1', '0', '-2', 'Q1_2']));
  out.push(...pairs('POWER', ['0', '1', '2', '-2', '4', '0.5', '10', '-8', 'Q1_5', '"3"', 'TRUE'], ['0', '1', '2', '-1', '0.5', '3', '-0.5', 'Q1_2', 'Q1_4']));
  out.push(...pairs('MOD', ['0', '1', '7', '-7', '7.5', '-7.5', '100', '0.3', 'Q1_1', '"9"', 'TRUE', '1e10'], ['1', '2', '-2', '3', '0.5', '-0.5', '0', 'Q1_2', '7']));
  for (const name of ['ROUND', 'ROUNDUP', 'ROUNDDOWN']) out.push(...pairs(name, ROUND_X, ROUND_N));
  out.push(...unary('INT', ['1e15+0.5', '-1e-10', '0.9999999', '-0.9999999', '2.5*2', '4.00000000001']));

  // Aggregates
  for (const name of ['SUM', 'AVERAGE', 'MIN', 'MAX', 'COUNT', 'COUNTA']) out.push(...lists(name));
  out.push(...['Q1_1', 'Q1_2', 'Q1_3', 'Q1_4', 'Q1_*', 'Q2_1', 'Q1_5', 'Q9_1'].map((x) => `COUNTBLANK(${x})`));
  out.push(
    'COUNTBLANK(Q1_4)+1', 'COUNTBLANK(Q1_*)*2', 'IF(COUNTBLANK(Q1_*)>0,"incomplete","complete")', 'COUNTBLANK(Q1_3)=0',
    'COUNTBLANK(Q1_*)&" blank"', 'COUNTA(Q1_*)+COUNTBLANK(Q1_*)', 'COUNTBLANK(Q1_4)-COUNTBLANK(Q1_1)', 'ISNUMBER(COUNTBLANK(Q1_*))',
    'COUNTBLANK(Q1_*)/COUNTA(Q1_*)', 'SUM(COUNTBLANK(Q1_4),COUNTBLANK(Q1_*))', 'MAX(COUNTBLANK(Q1_1),COUNTBLANK(Q1_4))', 'COUNTBLANK(Q1_2)^2',
  );

  // Logic
  const conds = ['TRUE', 'FALSE', '1', '0', '-1', '0.5', '"TRUE"', '"false"', 'Q1_1', 'Q1_4', 'Q1_1>5', 'Q1_3="Nairobi"', '1/0', '"x"'];
  out.push(...conds.map((c) => `IF(${c},"yes","no")`), ...conds.map((c) => `IF(${c},1)`));
  out.push('IF(TRUE,Q1_3,Q1_1)', 'IF(FALSE,Q1_3,Q1_1)', 'IF(TRUE,Q1_4,0)', 'IF(FALSE,1/0,2)', 'IF(TRUE,1/0,2)', 'IF(Q1_2>3,IF(Q1_1>9,"a","b"),"c")', 'IF(1,,2)', 'IF(0,2,)', 'IF(TRUE,"")', 'IF(2>1,TRUE,FALSE)');
  for (const name of ['AND', 'OR']) {
    out.push(...conds.map((c) => `${name}(${c})`));
    out.push(...conds.slice(0, 10).map((c) => `${name}(${c},TRUE)`), ...conds.slice(0, 10).map((c) => `${name}(FALSE,${c})`));
    out.push(`${name}(TRUE,TRUE,TRUE)`, `${name}(FALSE,FALSE,FALSE)`, `${name}(1,1,0)`, `${name}(Q1_1>1,Q1_2>1,Q1_5>1)`);
  }
  out.push(...conds.map((c) => `NOT(${c})`), 'NOT(NOT(TRUE))', 'NOT(1>2)', 'NOT(AND(TRUE,FALSE))', 'NOT(Q1_1=10)');

  // Text
  for (const name of ['LEN', 'UPPER', 'LOWER', 'TRIM']) out.push(...unary(name, STRINGS));
  out.push(...unary('UPPER', ['"straße"', '"ñandú"', '"i"', '"ǆ"', 'TRUE', '"MiXeD 123"']), ...unary('LOWER', ['"ÀÉÎ"', '"ΣΑΣ"', 'FALSE', '"MiXeD 123"', '"ÑANDÚ"', '"ẞ"', '"Ǆ"', '"ABC-xyz"']));
  out.push(...unary('LEN', ['"日本語"', '"tab\there"', '0.1+0.2', '1e10', '-0', 'TRUE', '"    "']));
  out.push(...unary('TRIM', ['" a "', '"a  b   c"', '"   "', '" lead"', '"trail "', '"  two  spaces  "']));
  for (const name of ['LEFT', 'RIGHT']) out.push(...pairs(name, STRINGS, COUNTS), ...unary(name, STRINGS.slice(0, 6)));
  out.push(...['"Fieldwork"', '"abc"', '""', '12345', 'Q1_3', '-1.5'].flatMap((s) => ['1,1', '1,3', '2,2', '3,10', '5,0', '10,2', '0,1', '1,-1', '1.9,2.9', '"2","2"', 'Q1_2,2'].map((a) => `MID(${s},${a})`)));
  out.push(...[
    '"a","b"', '"a",1', '1,2', '1.5,"x"', '"x",-0.25', 'Q1_3,Q1_1', 'Q1_4,"x"', '"a","b","c","d","e"', '"",""', '"x",1/0',
    '1e10,"!"', '0.1,0.2', '"a",,"b"', '"Q1_1"', '"tab",CONCATENATE("in","ner")', 'Q1_5,"%"', 'LEFT("abc",1),RIGHT("xyz",1)', '"-",-0',
  ].map((a) => `CONCATENATE(${a})`));

  // Errors and types
  const probe = [...POOL, '""&""', 'LEFT("abc",0)', 'Q1_*', '1/0+1', 'IF(FALSE,1)', '-Q1_4'];
  for (const name of ['ISBLANK', 'ISNUMBER', 'ISTEXT', 'ISERROR']) out.push(...unary(name, probe));
  out.push(...probe.map((x) => `IFERROR(${x},"err")`), ...['1/0', 'SQRT(-1)', '"a"+1', 'LN(0)', 'Q9_1', 'DATE(-1,1,1)', '5', 'Q1_4'].map((x) => `IFERROR(${x},IFERROR(1/0,-1))`));
  out.push(...POOL.map((x) => `IFNA(${x},"na")`));

  // Dates and times
  const years = ['1900', '1901', '1999', '2000', '2024', '2023', '9999', '0', '99', '1899', '-1', '"2024"', 'Q1_1', '2024.7'];
  out.push(...years.map((y) => `DATE(${y},1,1)`));
  out.push(...['1', '2', '12', '13', '0', '-1', '-12', '24', '25', '1.9'].map((m) => `DATE(2023,${m},15)`));
  out.push(...['1', '28', '29', '31', '32', '0', '-1', '366', '-365', '59.5'].map((d) => `DATE(2024,2,${d})`));
  out.push('DATE(2023,2,29)', 'DATE(2100,2,29)', 'DATE(2000,2,29)', 'DATE(1900,3,1)', 'DATE(TRUE,1,1)', 'DATE(2024,1,1)-DATE(2023,1,1)', 'DATE(2024,1,1/0)', 'DATE(2024,"x",1)');
  const hms = ['0,0,0', '1,0,0', '12,0,0', '23,59,59', '24,0,0', '25,30,0', '0,90,0', '0,0,90', '0,0,86400', '6,-30,0', '0,-1,0', '-1,0,0', '1.9,1.9,1.9', '12,30,30', '"6",0,0', 'TRUE,0,0', 'Q1_1,Q1_2,Q1_5', '0,1440,0', '100,0,0', '0,0,-1'];
  out.push(...hms.map((a) => `TIME(${a})`), ...hms.slice(0, 10).map((a) => `TIME(${a})*24`));
  for (const name of ['YEAR', 'MONTH', 'DAY']) out.push(...unary(name, DATES));
  for (const from of DATEDIF_FROM) for (const to of DATEDIF_TO) for (const u of UNITS.slice(0, 6)) out.push(`DATEDIF(${from},${to},${u})`);
  out.push('DATEDIF(45000,45000,"D")', 'DATEDIF(45001,45000,"D")', 'DATEDIF(45000,45010,"y")', 'DATEDIF(45000,45010,"X")', 'DATEDIF("x",45010,"D")', 'DATEDIF(45000,45010.9,"D")', 'DATEDIF(Q1_4,45000,"D")', 'DATEDIF(1/0,1,"D")');
  out.push('TODAY()+1', 'TODAY()-Q2_1', 'YEAR(TODAY())', 'MONTH(TODAY())', 'DAY(TODAY())', 'INT(NOW())=TODAY()', 'NOW()-TODAY()', 'ROUND((NOW()-TODAY())*24,6)', 'DATEDIF(Q2_1,TODAY(),"M")', 'DATEDIF(Q2_1,TODAY(),"D")', 'NOW()>TODAY()', 'TODAY()&""');
  out.push('NOW()+1', 'INT(NOW())', 'ROUND(NOW()*24,4)', 'YEAR(NOW())', 'DATEDIF(Q2_1,NOW(),"D")', 'MOD(NOW(),1)', 'NOW()-Q2_1>1000');

  // Formulas that combine several functions, as calculated questions do
  out.push(
    'ROUND(AVERAGE(Q1_*),1)', 'IF(ISBLANK(Q1_4),"missing",Q1_4)', 'CONCATENATE(UPPER(LEFT(Q1_3,1)),LOWER(MID(Q1_3,2,100)))',
    'IFERROR(Q1_1/Q1_4,"n/a")', 'SUM(Q1_1,Q1_2)/COUNT(Q1_1,Q1_2)', 'LEN(TRIM("  a  "))&"/"&LEN("  a  ")', 'MAX(Q1_*)-MIN(Q1_*)',
    'ROUND(SQRT(Q1_1^2+Q1_2^2),4)', 'IF(AND(Q1_1>=10,OR(Q1_2=4,Q1_2=5)),"ok","no")', 'YEAR(Q2_1)-1900', 'MOD(Q1_1,3)=1',
    'ROUNDUP(Q1_1/3,0)*3', 'LEFT(Q1_3,LEN(Q1_3)-1)', 'RIGHT(Q1_3,LEN(Q1_3)-3)', 'ABS(Q1_2-Q1_1)', 'POWER(Q1_2,0.5)+LOG(Q1_1)',
    'EXP(LN(Q1_1))', 'INT(Q1_1/Q1_2)&" r "&MOD(Q1_1,Q1_2)', 'COUNTA(Q1_*)-COUNT(Q1_*)', 'IF(Q1_5>2,ROUND(Q1_5,0),ROUNDDOWN(Q1_5,0))',
    'DATE(YEAR(Q2_1),MONTH(Q2_1)+1,0)', 'DAY(DATE(YEAR(Q2_1),MONTH(Q2_1)+1,0))', 'TIME(Q1_1,Q1_2,0)*24*60', 'ISNUMBER(Q1_1)+ISTEXT(Q1_3)',
    'AVERAGE(Q1_1,Q1_2,Q1_5)*COUNT(Q1_*)', 'SUM(Q1_*)/COUNTA(Q1_*)', 'IFERROR(LOG(Q1_4),"none")', 'UPPER(Q1_3)=Q1_3', 'LOWER(Q1_3)&Q1_2',
  );
  return out;
}
