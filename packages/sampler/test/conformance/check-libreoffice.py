#!/usr/bin/python3
# Recomputes the expected values of formula-conformance.json with LibreOffice Calc, headless, through its Python UNO
# bridge, so that no expected value is ours alone. Debian: apt-get install libreoffice-calc python3-uno; run with the
# system Python (/usr/bin/python3):
#
#   /usr/bin/python3 packages/sampler/test/conformance/check-libreoffice.py [--only-source] [--verbose]
#   /usr/bin/python3 packages/sampler/test/conformance/check-libreoffice.py --record
#
# --only-source checks only the cases that name their source (those added from issue 21 on). --record writes what
# LibreOffice gives for every formula of the table to libreoffice-results.json, from which generate.mjs takes the
# expected values of the breadth cases (breadth.mjs) and the agreement of the others: run generate.mjs, then
# --record, then generate.mjs again after adding formulas. The document is set to
# ignore case in comparisons, as Excel does (LibreOffice's own default for a new document is case-sensitive).
# Question references become cells (Q1_1..Q1_5 = Z1:Z5, Q1_* = Z1:Z5, Q2_1 = Y1, Q9_1 and other unknown ones =
# #REF!), the separator becomes ";", single-quoted text becomes double-quoted, time literals become TIMEVALUE("..."),
# the spec's infix NOT becomes <>, and TODAY() and NOW() become the table's clock (2026-11-22 12:00). Cases that do not compile for us are reported as LibreOffice's error codes.
# It prints one line per disagreement and a summary; it exits 1 when a case marked as agreeing with LibreOffice
# ("LO" in its source) disagrees.
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import uno  # noqa: F401  (the system Python's UNO bridge)
from com.sun.star.beans import PropertyValue

HERE = os.path.dirname(os.path.abspath(__file__))
LO_ERRORS = {532: 'DIV_ZERO', 519: 'VALUE', 503: 'NUM', 502: 'NUM', 525: 'NAME', 524: 'REF', 32767: 'NA', 504: 'VALUE'}
REFS = {'1_1': 'Z1', '1_2': 'Z2', '1_3': 'Z3', '1_4': 'Z4', '1_5': 'Z5', '1_*': 'Z1:Z5', '2_1': 'Y1'}


def translate(formula):
    """Our formula as LibreOffice's API formula (English names, ';' between arguments)."""
    out = []
    i = 0
    f = formula.strip()
    if f.startswith('='):
        f = f[1:]
    while i < len(f):
        c = f[i]
        if c in '"\'':
            j = i + 1
            text = ''
            while j < len(f):
                if f[j] == c and j + 1 < len(f) and f[j + 1] == c:
                    text += c
                    j += 2
                elif f[j] == c:
                    break
                else:
                    text += f[j]
                    j += 1
            out.append('"' + text.replace('"', '""') + '"')
            i = j + 1
            continue
        m = re.match(r'\d{1,2}:\d{2}(:\d{2})?( *[AaPp][Mm])?(?![\w.])', f[i:])
        if m and (i == 0 or not (f[i - 1].isalnum() or f[i - 1] in '._')):
            out.append('TIMEVALUE("%s")' % m.group(0))
            i += len(m.group(0))
            continue
        m = re.match(r'[Qq](\d+)_(\d+|\*)(?![\w.])', f[i:])
        if m and (i == 0 or not (f[i - 1].isalnum() or f[i - 1] in '._')):
            key = '%s_%s' % (m.group(1), m.group(2))
            out.append(REFS.get(key, '#REF!'))
            i += len(m.group(0))
            continue
        m = re.match(r'(?i)(today|now)\(\)', f[i:])
        if m and (i == 0 or not (f[i - 1].isalnum() or f[i - 1] in '._')):
            out.append('DATE(2026;11;22)' if m.group(1).lower() == 'today' else '(DATE(2026;11;22)+TIME(12;0;0))')
            i += len(m.group(0))
            continue
        m = re.match(r'(?i)not(?![\w.(])', f[i:])
        if m and i > 0 and not (f[i - 1].isalnum() or f[i - 1] in '._'):
            out.append('<>')
            i += 3
            continue
        out.append(';' if c == ',' else c)
        i += 1
    return '=' + ''.join(out)


def connect():
    profile = tempfile.mkdtemp(prefix='lo-profile-')
    proc = subprocess.Popen(
        ['soffice', '--headless', '--invisible', '--norestore', '--nologo',
         '-env:UserInstallation=file://' + profile,
         '--accept=socket,host=127.0.0.1,port=2083;urp;StarOffice.ComponentContext'],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext('com.sun.star.bridge.UnoUrlResolver', local)
    for _ in range(120):
        try:
            ctx = resolver.resolve('uno:socket,host=127.0.0.1,port=2083;urp;StarOffice.ComponentContext')
            return proc, ctx
        except Exception:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit('LibreOffice did not start')


def main():
    only_source = '--only-source' in sys.argv
    record = '--record' in sys.argv
    verbose = '--verbose' in sys.argv
    cases = json.load(open(os.path.join(HERE, 'formula-conformance.json')))['cases']
    if only_source:
        cases = [c for c in cases if 'source' in c]
    proc, ctx = connect()
    try:
        desktop = ctx.ServiceManager.createInstanceWithContext('com.sun.star.frame.Desktop', ctx)
        hidden = PropertyValue()
        hidden.Name = 'Hidden'
        hidden.Value = True
        doc = desktop.loadComponentFromURL('private:factory/scalc', '_blank', 0, (hidden,))
        doc.IgnoreCase = True
        sheet = doc.Sheets.getByIndex(0)
        for addr, v in (('Z1', 10), ('Z2', 4), ('Z5', 2.5), ('Y1', 45000)):
            sheet.getCellRangeByName(addr).setValue(v)
        sheet.getCellRangeByName('Z3').setString('Nairobi')
        formats = doc.NumberFormats
        for row, c in enumerate(cases, start=1):
            sheet.getCellByPosition(0, row).setFormula(translate(c['formula']))
        doc.calculateAll()
        agree = disagree = bad = 0
        recorded = {}
        for row, c in enumerate(cases, start=1):
            cell = sheet.getCellByPosition(0, row)
            code = cell.getError()
            if code:
                got = {'error': LO_ERRORS.get(code, 'Err:%d' % code)}
            elif cell.FormulaResultType2 == 2:
                got = cell.getString()
            else:
                got = cell.getValue()
                try:
                    if formats.getByKey(cell.NumberFormat).Type & 1024:
                        got = bool(got)
                except Exception:
                    pass
            recorded[c['formula']] = got
            e = c['expected']
            if record:
                continue
            if e is None:
                same = False
            elif isinstance(e, dict) and 'compile' in e:
                same = isinstance(got, dict) and 'error' in got
            elif isinstance(e, dict):
                same = got == e
            elif isinstance(e, bool):
                same = got is e
            elif isinstance(e, (int, float)):
                same = isinstance(got, float) and not isinstance(got, bool) and abs(got - e) <= 1e-9 * max(1, abs(e))
            else:
                same = got == e
            source = c.get('source', '')
            if same:
                agree += 1
                if verbose:
                    print('agree     %-40s %r' % (c['formula'], got))
            else:
                disagree += 1
                marked = 'LO' in source.split('; ')
                bad += marked
                print('%s %-40s ours %r, LibreOffice %r (%s) [%s]' % (
                    'WRONG   ' if marked else 'differs ', c['formula'], e, got, translate(c['formula']), source))
        if record:
            version = subprocess.run(['soffice', '--version'], capture_output=True, text=True).stdout.strip()
            with open(os.path.join(HERE, 'libreoffice-results.json'), 'w') as out:
                json.dump({'libreoffice': version, 'results': recorded}, out, indent=1, ensure_ascii=False, sort_keys=True)
                out.write('\n')
            print('%d formulas recorded in libreoffice-results.json (%s)' % (len(recorded), version))
            doc.close(True)
            return 0
        print('%d cases: %d agree with LibreOffice, %d differ (%d of them marked as agreeing)' % (
            len(cases), agree, disagree, bad))
        doc.close(True)
        return 1 if bad else 0
    finally:
        proc.terminate()


if __name__ == '__main__':
    sys.exit(main())
