// The XLSForm download of the builder: the file's name from the gateway's header, the file as an object URL, errors.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../app/store';
import { session } from '../../app/session';
import { json } from '../../test/render';
import { attachmentName, builderApi } from './builderApi';

const fetchMock = vi.fn<typeof fetch>();
const createObjectURL = vi.fn((_blob: Blob) => 'blob:form');
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
  URL.createObjectURL = createObjectURL;
});
afterEach(() => vi.unstubAllGlobals());

describe('attachmentName', () => {
  it('prefers the UTF-8 name, falls back to the plain one, then to form.xlsx', () => {
    expect(
      attachmentName(`attachment; filename="Enquete menage.xlsx"; filename*=UTF-8''Enqu%C3%AAte%20m%C3%A9nage.xlsx`),
    ).toBe('Enquête ménage.xlsx');
    expect(attachmentName('attachment; filename="Plain.xlsx"')).toBe('Plain.xlsx');
    expect(attachmentName(`attachment; filename="Bad.xlsx"; filename*=UTF-8''%E0%A4%A`)).toBe('Bad.xlsx');
    expect(attachmentName(null)).toBe('form.xlsx');
  });
});

describe('xlsForm', () => {
  it('answers the downloaded workbook as an object URL with its name', async () => {
    session.store('a', 'r', Date.now());
    fetchMock.mockResolvedValueOnce(
      new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
        status: 200,
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': `attachment; filename="Form.xlsx"; filename*=UTF-8''Form.xlsx`,
        },
      }),
    );
    const r = await makeStore().dispatch(builderApi.endpoints.xlsForm.initiate(12));
    expect(r).toMatchObject({ data: { url: 'blob:form', filename: 'Form.xlsx' } });
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.url).toMatch(/\/api\/samplerschema\/12\/xlsform\/$/);
    expect(request.headers.get('Authorization')).toBe('JWT a');
    expect(createObjectURL.mock.calls[0]![0].size).toBe(4);
  });

  it('answers the gateway’s refusal as an error', async () => {
    session.store('a', 'r', Date.now());
    fetchMock.mockResolvedValueOnce(json(404, { detail: 'Invalid Schema Id!' }));
    const r = await makeStore().dispatch(builderApi.endpoints.xlsForm.initiate(13));
    expect(r).toMatchObject({ error: { status: 404, data: { detail: 'Invalid Schema Id!' } } });
  });
});
