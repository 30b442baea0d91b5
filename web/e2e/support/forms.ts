// Forms the collect journeys fill, built with @fieldwork/sampler as the builder would save them.
import {
  addBlock,
  addChoice,
  addItem,
  newSchemaBody,
  updateBlock,
  updateItem,
  type SchemaBody,
} from '@fieldwork/sampler';
import type { Account, Api, Project } from './api.js';

export interface HouseholdForm {
  body: SchemaBody;
  /** Item and choice ids. */
  ids: {
    age: number;
    code: number;
    visit: number;
    fuel: number;
    wood: number;
    gas: number;
    coal: number;
    sick: number;
    yes: number;
    no: number;
    who: number;
  };
}

/**
 * A household visit with a rule of every kind: the head's age (number 0-100, required), a household code (a
 * pattern with its own message), the visit date (not before 2020), fuels (several, at most two), "anyone sick?"
 * (yes/no) and, only for "yes", a category asking who (required there).
 */
export function householdForm(): HouseholdForm {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const age = addItem(b.body, b.id, 'number', 'en', 'Age of the head of household');
  const code = addItem(age.body, b.id, 'open', 'en', 'Household code');
  const visit = addItem(code.body, b.id, 'date', 'en', 'Date of the visit');
  const fuel = addItem(visit.body, b.id, 'choice', 'en', 'Fuels used');
  const wood = addChoice(fuel.body, fuel.id, 'en', 'Wood');
  const gas = addChoice(wood.body, fuel.id, 'en', 'Gas');
  const coal = addChoice(gas.body, fuel.id, 'en', 'Coal');
  const sick = addItem(coal.body, b.id, 'binary', 'en', 'Is anyone sick?');
  const [yes, no] = sick.body.entities.items[sick.id]!.options.choices!;
  const illness = addBlock(sick.body, { en: 'Illness' });
  const who = addItem(illness.body, illness.id, 'open', 'en', 'Who is sick?');
  let body = updateItem(who.body, age.id, { options: { isRequiredQuestion: true } });
  body = updateItem(body, code.id, {
    options: {
      pattern: {
        active: true,
        value: '^[A-Z]{2}[0-9]{4}$',
        message: { en: 'Two capital letters then four digits, like KE0042.' },
      },
    },
  });
  body = updateItem(body, visit.id, { options: { minimum: { active: true, value: '2020-01-01' } } });
  body = updateItem(body, fuel.id, { options: { multiselect: true, maxChoices: { active: true, value: 2 } } });
  body = updateItem(body, who.id, { options: { isRequiredQuestion: true } });
  body = updateBlock(body, illness.id, {
    conditions: [{ itemId: sick.id, schemaId: 0, condition: [yes!], finalized: true }],
  });
  return {
    body,
    ids: {
      age: age.id,
      code: code.id,
      visit: visit.id,
      fuel: fuel.id,
      wood: wood.id,
      gas: gas.id,
      coal: coal.id,
      sick: sick.id,
      yes: yes!,
      no: no!,
      who: who.id,
    },
  };
}

/** The same form with the head's age capped lower: a form changed on the server after a device loaded it. */
export function withMaximumAge(form: HouseholdForm, maximum: number): SchemaBody {
  return updateItem(form.body, form.ids.age, { options: { maximum: { active: true, value: maximum } } });
}

/** A project of the workspace with the household form saved, and a collector in it. */
export async function householdProject(
  api: Api,
  name: string,
): Promise<{ form: HouseholdForm; ids: HouseholdForm['ids']; project: Project; schemaId: number; collector: Account }> {
  const form = householdForm();
  const project = await api.createProject(name);
  const schemaId = project.sampler_schemas[0]!.id;
  await api.saveSchema(schemaId, form.body);
  const collector = await api.addProjectUser(project.id, 'collector');
  return { form, ids: form.ids, project, schemaId, collector };
}
