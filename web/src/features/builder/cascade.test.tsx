// The builder's cascading choices: a choice question picks an earlier single choice question to filter its choices
// by, and ties each of its choices to that question's choices.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import {
  addBlock,
  addChoice,
  addItem,
  formProblems,
  newSchemaBody,
  updateItem,
  type SchemaBody,
} from '@fieldwork/sampler';
import { renderWithProviders } from '../../test/render';
import { QuestionEditor } from './QuestionEditor';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Where' });
  const many = addItem(b.body, b.id, 'choice', 'en', 'Languages');
  const x = addChoice(many.body, many.id, 'en', 'Swahili');
  const country = addItem(
    updateItem(x.body, many.id, { options: { ...x.body.entities.items[many.id]!.options, multiselect: true } }),
    b.id,
    'choice',
    'en',
    'Country',
  );
  const kenya = addChoice(country.body, country.id, 'en', 'Kenya');
  const uganda = addChoice(kenya.body, country.id, 'en', 'Uganda');
  const region = addItem(uganda.body, b.id, 'choice', 'en', 'Region');
  const nairobi = addChoice(region.body, region.id, 'en', 'Nairobi');
  const later = addItem(nairobi.body, b.id, 'choice', 'en', 'Later');
  const y = addChoice(later.body, later.id, 'en', 'Y');
  return {
    body: y.body,
    country: country.id,
    region: region.id,
    kenya: kenya.id,
    uganda: uganda.id,
    nairobi: nairobi.id,
  };
}

describe('QuestionEditor cascading choices', () => {
  it('offers earlier single choice questions as the filter, and ties a choice to the filter question choices', () => {
    const f = form();
    let next: SchemaBody | undefined;
    const view = renderWithProviders(
      <QuestionEditor
        body={f.body}
        item={f.body.entities.items[f.region]!}
        lang="en"
        hasResponses={false}
        onChange={(b) => (next = b)}
      />,
    );
    const select = screen.getByTestId<HTMLSelectElement>('choice-filter-select');
    // Not the multiselect Languages, not the later question, not the question itself.
    expect([...select.options].map((o) => o.textContent)).toEqual(['No question: every choice is offered', 'Country']);
    expect(screen.queryByTestId('choice-ties')).toBeNull();
    fireEvent.change(select, { target: { value: String(f.country) } });
    expect(next!.entities.items[f.region]!.options.choiceFilter).toEqual({ itemId: f.country, ties: {} });
    view.unmount();

    renderWithProviders(
      <QuestionEditor
        body={next!}
        item={next!.entities.items[f.region]!}
        lang="en"
        hasResponses={false}
        onChange={(b) => (next = b)}
      />,
    );
    expect(screen.getByTestId('choice-ties').textContent).toContain('Kenya');
    fireEvent.click(screen.getByTestId(`tie-${f.nairobi}-${f.kenya}`));
    expect(next!.entities.items[f.region]!.options.choiceFilter).toEqual({
      itemId: f.country,
      ties: { [f.nairobi]: [f.kenya] },
    });
    expect(formProblems(next!)).toEqual([]);
  });
});
