// Links to the gateway's own files use the host the caller reached (issue 19: an export's download link said
// localhost): the Host header, or X-Forwarded-Host and X-Forwarded-Proto from a trusted proxy only; links to another
// store are left as made.
import { afterAll, describe, expect, it } from 'vitest';
import { exports_, responses } from '@fieldwork/proto';
import { buildTestGateway } from './testing/inject.js';

const direct = await buildTestGateway();
const proxied = await buildTestGateway({ trustedProxies: '127.0.0.1' });
afterAll(async () => {
  await direct.close();
  await proxied.close();
});

const SIGNED = '/api/files/exports/7/job-1/named.csv?method=GET&exp=1900000000&filename=named.csv&sig=abc';
const doneJob = (url: string, report = '') =>
  exports_.Job.fromPartial({ id: 'job-1', project_id: 7, kind: 'named_csv', status: 'done', url, report_url: report });

describe('file links', () => {
  it('an export made with PUBLIC_URL localhost links to the Host the caller used, its report too', async () => {
    direct.reset();
    direct.answer('exports', 'getJob', doneJob(`http://localhost:8080${SIGNED}`, `http://localhost:8080${SIGNED}&r=1`));
    const res = await direct.inject({
      url: '/api/exports/jobs/job-1/',
      headers: { ...direct.as('owner'), host: 'survey.example.org:8443' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      url: `http://survey.example.org:8443${SIGNED}`,
      report_url: `http://survey.example.org:8443${SIGNED}&r=1`,
    });
  });

  it('a finished export answered at once, and media links, follow the host as well', async () => {
    direct.reset();
    direct.answer('exports', 'createExport', doneJob(`http://localhost:8080${SIGNED}`));
    const res = await direct.inject({
      url: '/api/project/7/named_csv/',
      headers: { ...direct.as('owner'), host: '10.0.0.5:8080' },
    });
    expect(res.json()).toMatchObject({ url: `http://10.0.0.5:8080${SIGNED}` });

    direct.reset();
    const put = '/api/files/media/7/r1/photo.jpg?method=PUT&exp=1900000000&size=10&sig=abc';
    direct.answer(
      'responses',
      'createMediaUpload',
      responses.MediaUpload.fromPartial({ media_id: 'm1', upload_url: `http://localhost:8080${put}` }),
    );
    const media = await direct.inject({
      method: 'POST',
      url: '/api/project/7/media/',
      headers: { ...direct.as('owner'), host: '10.0.0.5:8080' },
      payload: { response_id: 'r1', kind: 'image', filename: 'photo.jpg', content_type: 'image/jpeg', size: 10 },
    });
    expect(media.statusCode).toBe(201);
    expect(media.json()).toMatchObject({ upload_url: `http://10.0.0.5:8080${put}` });
  });

  it('X-Forwarded-Host and X-Forwarded-Proto are believed from a trusted proxy, and ignored from anyone else', async () => {
    for (const t of [direct, proxied]) {
      t.reset();
      t.answer('exports', 'getJob', doneJob(`http://localhost:8080${SIGNED}`));
    }
    const headers = { host: 'internal:8080', 'x-forwarded-host': 'survey.example.org', 'x-forwarded-proto': 'https' };
    const viaProxy = await proxied.inject({
      url: '/api/exports/jobs/job-1/',
      headers: { ...proxied.as('owner'), ...headers },
      remoteAddress: '127.0.0.1',
    });
    expect(viaProxy.json()).toMatchObject({ url: `https://survey.example.org${SIGNED}` });
    const notTrusted = await direct.inject({
      url: '/api/exports/jobs/job-1/',
      headers: { ...direct.as('owner'), ...headers },
      remoteAddress: '127.0.0.1',
    });
    expect(notTrusted.json()).toMatchObject({ url: `http://internal:8080${SIGNED}` });
  });

  it('leaves S3 presigned links alone, and a Host that is no host name changes nothing', async () => {
    direct.reset();
    const s3 = 'https://minio.example.org/fieldwork-exports/7/job-1/named.csv?X-Amz-Signature=abc';
    direct.answer('exports', 'getJob', doneJob(s3));
    const res = await direct.inject({
      url: '/api/exports/jobs/job-1/',
      headers: { ...direct.as('owner'), host: 'survey.example.org' },
    });
    expect(res.json()).toMatchObject({ url: s3 });

    direct.reset();
    direct.answer('exports', 'getJob', doneJob(`http://localhost:8080${SIGNED}`));
    const odd = await direct.inject({
      url: '/api/exports/jobs/job-1/',
      headers: { ...direct.as('owner'), host: 'evil.example"/><x' },
    });
    expect(odd.json()).toMatchObject({ url: `http://localhost:8080${SIGNED}` });
  });
});
