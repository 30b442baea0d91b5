import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { addBlock, addChoice, addItem, newSchemaBody, updateBlock, updateItem } from '@fieldwork/sampler';
import { renderWithProviders } from '../../test/render';
import { ConditionEditor } from './ConditionEditor';
import { QuestionEditor } from './QuestionEditor';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Household' });
  const q = addItem(b.body, b.id, 'choice', 'en', 'Fuel');
  const c = addChoice(q.body, q.id, 'en', 'Wood');
  const follow = addBlock(c.body, { en: 'Follow-up' });
  const calc = addItem(follow.body, follow.id, 'calculated', 'en', 'Total');
  return { body: calc.body, follow: follow.id, choice: q.id, wood: c.id, calc: calc.id };
}
const option = (name: string) => screen.getByRole<HTMLOptionElement>('option', { name });

describe(ConditionEditor.name, () => {
  it('lets only NOT open a condition, and no operator follow an operator', () => {
    const f = form();
    const view = renderWithProviders(<ConditionEditor body={f.body} block={f.body.entities.blocks[f.follow]!} lang="en" onChange={() => undefined} />);
    expect(option('AND').disabled).toBe(true);
    expect(option('OR').disabled).toBe(true);
    expect(option('NOT').disabled).toBe(false);
    view.unmount();
    const test = { itemId: f.choice, schemaId: 0, condition: [f.wood], finalized: true };
    const body = updateBlock(f.body, f.follow, { conditions: [test, { operator: 'AND' }] });
    renderWithProviders(<ConditionEditor body={body} block={body.entities.blocks[f.follow]!} lang="en" onChange={() => undefined} />);
    expect(screen.getByTestId<HTMLSelectElement>('condition-operator').disabled).toBe(true);
  });

  it("names a test on the level above's answer by that form's question and choice", () => {
    const parent = form();
    const child = form();
    // The child form's own item with the parent's question's id is another question ("Fuel" there too): rename it.
    const own = updateItem(child.body, child.choice, { name: { en: 'Cooking fuel' } });
    const body = updateBlock(own, child.follow, { conditions: [{ itemId: parent.choice, schemaId: 7, condition: [parent.wood], finalized: true }] });
    const parentBody = updateItem(parent.body, parent.choice, { name: { en: 'Household fuel' } });
    renderWithProviders(<ConditionEditor body={body} block={body.entities.blocks[child.follow]!} lang="en" onChange={() => undefined} schemaId={8} others={{ 7: parentBody }} />);
    expect(screen.getByTestId('condition-entry').textContent).toContain('Household fuel (level above) ∈ {Wood}');
    expect(screen.getByTestId('condition-entry').textContent).not.toContain('Cooking fuel');
  });
});

describe(QuestionEditor.name, () => {
  const editor = (formula: string) => {
    const f = form();
    const body = updateItem(f.body, f.calc, { options: { formula } });
    return renderWithProviders(<QuestionEditor body={body} item={body.entities.items[f.calc]!} lang="en" hasResponses={false} onChange={() => undefined} />);
  };

  it('accepts a calculated question without a formula', () => {
    editor('');
    expect(screen.getByTestId('formula-ok')).toBeTruthy();
    expect(screen.queryByTestId('formula-error')).toBeNull();
  });

  it("shows the spec's message with the unknown name beside it", () => {
    editor('FOO(1)');
    expect(screen.getByTestId('formula-message').textContent).toBe('Name not found!');
    expect(screen.getByTestId('formula-name').textContent).toBe('FOO');
  });
});
