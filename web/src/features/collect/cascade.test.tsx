// Cascading choices in the form a collector fills (and the builder's preview, which draws the same form): only the
// choices the filter question's answer offers show, and changing that answer clears a child answer it no longer offers.
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import {
  addBlock,
  addChoice,
  addItem,
  newSchemaBody,
  updateItem,
  visibility,
  type Answers,
  type SchemaBody,
} from '@fieldwork/sampler';
import { renderWithProviders } from '../../test/render';
import { FormRenderer } from './FormRenderer';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Where' });
  const country = addItem(b.body, b.id, 'choice', 'en', 'Country');
  const kenya = addChoice(country.body, country.id, 'en', 'Kenya');
  const uganda = addChoice(kenya.body, country.id, 'en', 'Uganda');
  const region = addItem(uganda.body, b.id, 'choice', 'en', 'Region');
  const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi');
  const kampala = addChoice(nairobi.body, region.id, 'en', 'Kampala');
  const body = updateItem(kampala.body, region.id, {
    options: {
      ...kampala.body.entities.items[region.id]!.options,
      choiceFilter: { itemId: country.id, ties: { [nairobi.id]: [kenya.id], [kampala.id]: [uganda.id] } },
    },
  });
  return { body, region: region.id };
}

let latest: Answers = {};
function Harness({ body }: { body: SchemaBody }) {
  const [answers, setAnswers] = useState<Answers>({});
  latest = answers;
  const shown = visibility(body, { schemaId: 1, answers });
  return (
    <FormRenderer
      body={body}
      lang="en"
      answers={answers}
      onChange={(update) => setAnswers(update)}
      shown={shown}
      problems={new Map()}
      responseId="r"
      projectId={1}
    />
  );
}
const labels = () => screen.queryAllByRole('radio').map((r) => r.parentElement!.textContent);

describe('cascading choices in the form', () => {
  it('offers the children of the chosen parent only, and clears the child answer when the parent changes', () => {
    const f = form();
    renderWithProviders(<Harness body={f.body} />);
    expect(labels()).toEqual(['Kenya', 'Uganda']);
    expect(screen.getByTestId('cascade-waiting').textContent).toBe(
      'Answer “Country” first: its answer decides the choices here.',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Kenya' }));
    expect(labels()).toEqual(['Kenya', 'Uganda', 'Nairobi']);
    fireEvent.click(screen.getByRole('radio', { name: 'Nairobi' }));
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Nairobi' }).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: 'Uganda' }));
    expect(labels()).toEqual(['Kenya', 'Uganda', 'Kampala']);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Kampala' }).checked).toBe(false);
    expect(latest[f.region]).toEqual([]);
  });
});
