// The first start's demo data (single-machine mode only): in the demo's "Household Survey" project, a form with
// every question type, sites with locations, and 10,000 generated responses spread over the last year, uploaded
// through the responses service like any collector's. Done once: a project that has responses is left alone.
import { common, forms, projects, responses } from '@fieldwork/proto';
import { addBlock, addChoice, addItem, newSchemaBody, updateItem, type SchemaBody } from '@fieldwork/sampler';
import { createClient } from '@fieldwork/service-kit';

export const DEMO_RESPONSES = 10_000;

const SITES = [
  { name: 'Kibera', lat: -1.3133, lng: 36.7892 },
  { name: 'Kisumu Central', lat: -0.0917, lng: 34.768 },
  { name: 'Mombasa Old Town', lat: -4.0623, lng: 39.6766 },
  { name: 'Nakuru East', lat: -0.2833, lng: 36.0667 },
  { name: 'Eldoret North', lat: 0.5143, lng: 35.2698 },
];

/** A form with every question type (but empty, never valid: spec 001): the ids of what the generator answers. */
export function demoForm(): { body: SchemaBody; q: Record<string, number>; choices: Record<string, number[]> } {
  let body = newSchemaBody('S');
  const b1 = addBlock(body, { en: 'Household' });
  body = b1.body;
  const q: Record<string, number> = {};
  const choices: Record<string, number[]> = {};
  const add = (key: string, type: Parameters<typeof addItem>[2], name: string, block = b1.id) => {
    const r = addItem(body, block, type, 'en', name);
    body = r.body;
    q[key] = r.id;
    return r.id;
  };
  add('intro', 'instruction', 'Introduction');
  body = updateItem(body, q.intro!, { instruction: { en: 'Ask the head of the household.' } });
  add('members', 'number', 'Household members');
  body = updateItem(body, q.members!, {
    options: {
      ...body.entities.items[q.members!]!.options,
      minimum: { active: true, value: 1 },
      maximum: { active: true, value: 20 },
    },
  });
  add('income', 'currency', 'Monthly income');
  body = updateItem(body, q.income!, {
    options: {
      ...body.entities.items[q.income!]!.options,
      allowDecimal: true,
      minimum: { active: true, value: 0 },
      maximum: { active: true, value: 1_000_000 },
    },
  });
  add('electricity', 'binary', 'Has electricity');
  choices.electricity = body.entities.items[q.electricity!]!.options.choices ?? [];
  add('water', 'choice', 'Main water source');
  choices.water = [];
  for (const label of ['Piped', 'Borehole', 'River', 'Rainwater', 'Vendor']) {
    const c = addChoice(body, q.water!, 'en', label);
    body = c.body;
    choices.water.push(c.id);
  }
  add('assets', 'choice', 'Assets');
  body = updateItem(body, q.assets!, { options: { ...body.entities.items[q.assets!]!.options, multiselect: true } });
  choices.assets = [];
  for (const label of ['Radio', 'Phone', 'Bicycle', 'Motorbike', 'Fridge']) {
    const c = addChoice(body, q.assets!, 'en', label);
    body = c.body;
    choices.assets.push(c.id);
  }
  add('visit', 'date', 'Date of visit');
  add('location', 'geotag', 'Location of the house');
  add('head', 'open', 'Name of the head of household');
  // A lookup question: each household is a profile in the results' profile view.
  body = updateItem(body, q.head!, { options: { ...body.entities.items[q.head!]!.options, isLookupQuestion: true } });
  add('meter', 'barcode', 'Meter number');
  add('photo', 'image', 'Photo of the house');
  add('signature', 'signature', 'Consent signature');
  add('perPerson', 'calculated', 'Income per member');
  body = updateItem(body, q.perPerson!, {
    options: {
      ...body.entities.items[q.perPerson!]!.options,
      formula: `ROUND(Q${b1.id}_${q.income} / Q${b1.id}_${q.members}, 2)`,
    },
  });
  add('label', 'concatenation', 'Label');
  body = updateItem(body, q.label!, {
    options: {
      ...body.entities.items[q.label!]!.options,
      concatenation: `${body.entities.items[q.head!]!.codeName}, ${body.entities.items[q.visit!]!.codeName}`,
    },
  });
  add('registry', 'reference_project', 'Registry entry');
  return { body, q, choices };
}

/** A deterministic pseudo-random number in [0, 1) from n and a salt. */
function rand(n: number, salt: number): number {
  const x = Math.sin(n * 12.9898 + salt * 78.233) * 43758.5453;
  return x - Math.floor(x);
}

export async function seedDemoData(
  addresses: { projects: string; forms: string; responses: string; secret: string },
  who: { userId: number; organizationId: number },
  say: (m: string) => void,
  count = DEMO_RESPONSES,
): Promise<number> {
  const sealed = { secret: addresses.secret };
  const p = createClient(projects.ProjectsServiceClient, addresses.projects, sealed);
  const f = createClient(forms.FormsServiceClient, addresses.forms, sealed);
  const r = createClient(responses.ResponsesServiceClient, addresses.responses, sealed);
  try {
    const caller = common.Caller.fromPartial({ user_id: who.userId, organization_id: who.organizationId });
    const list = await p.listProjects({ caller, organization_id: who.organizationId });
    const brief = list.results.find((x) => x.name === 'Household Survey');
    if (!brief) return 0;
    const counts = await r.countResponses({ project_id: brief.id });
    if ((counts.all?.total ?? 0) > 0) return 0;
    const project = await p.getProject({ caller, project_id: brief.id });
    const schemaId = project.sampler_schemas[0]!.id;
    const { body, q, choices } = demoForm();
    await f.saveSchemaDocument({
      caller,
      schema_id: schemaId,
      body_json: JSON.stringify(body),
      revision: 0,
      name: 'Household form',
    });
    const sites = [project.sites[0]!.id];
    for (const s of SITES) {
      const made = await p.createSite({
        caller,
        project_id: brief.id,
        site_id: 0,
        name: s.name,
        geotag: { latitude: s.lat, longitude: s.lng },
        geotag_given: true,
        frontend_icon: '',
        frontend_color: '',
      });
      sites.push(made.id);
    }
    say(`generating ${count.toLocaleString('en')} demo responses`);
    const yearMs = 365 * 86_400_000;
    const start = Date.now() - yearMs;
    let done = 0;
    const one = async (n: number) => {
      const siteIndex = Math.floor(rand(n, 1) * SITES.length);
      const site = SITES[siteIndex]!;
      const created = new Date(start + Math.floor((n / count) * (yearMs - 3_600_000)));
      const members = 1 + Math.floor(rand(n, 2) * 9);
      const answers: Record<string, unknown> = {
        [q.members!]: members,
        [q.income!]: Math.round(rand(n, 3) * 80_000) / 1,
        [q.electricity!]: [choices.electricity![rand(n, 4) < 0.62 ? 0 : 1]],
        [q.water!]: [choices.water![Math.floor(rand(n, 5) ** 1.6 * 5)]],
        [q.assets!]: choices.assets!.filter((_, k) => rand(n, 6 + k) < 0.5 - k * 0.08),
        [q.visit!]: created.toISOString().slice(0, 10),
        [q.location!]: {
          type: 'Point',
          coordinates: [site.lng + (rand(n, 12) - 0.5) * 0.05, site.lat + (rand(n, 13) - 0.5) * 0.05],
        },
        [q.head!]: `Household ${n + 1}`,
        [q.meter!]: `M${String(100000 + n)}`,
      };
      await r.upload({
        caller,
        project_id: brief.id,
        action: rand(n, 14) < 0.85 ? 'complete' : 'save',
        payload_json: JSON.stringify({
          sampler_schema: schemaId,
          device_id: 'demo',
          response_id: `${brief.id}-${schemaId}-${who.userId}-demo-${n}`,
          site: sites[siteIndex + 1],
          time_created: created.toISOString(),
          time_updated: new Date(created.getTime() + 20 * 60_000).toISOString(),
          geotag: answers[q.location!],
          data: { '0': answers },
        }),
      });
      done++;
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) await one(next++);
      }),
    );
    return done;
  } finally {
    p.close();
    f.close();
    r.close();
  }
}
