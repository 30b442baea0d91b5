// The keyboard a collector's phone shows for a number question: the number pad when the answer cannot be negative,
// the keyboard with a minus sign otherwise (iOS's pads have none: a temperature of -5 could not be typed).
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { addBlock, addItem, newSchemaBody, updateItem, visibility } from '@fieldwork/sampler';
import { renderWithProviders } from '../../test/render';
import { FormRenderer } from './FormRenderer';

function form() {
  const b = addBlock(newSchemaBody('S'), { en: 'Readings' });
  const age = addItem(b.body, b.id, 'number', 'en', 'Age'); // the defaults: 0 to 100, whole numbers
  const weight = addItem(age.body, b.id, 'number', 'en', 'Weight');
  const temp = addItem(weight.body, b.id, 'number', 'en', 'Temperature');
  let body = updateItem(temp.body, weight.id, { options: { allowDecimal: true } });
  body = updateItem(body, temp.id, { options: { allowDecimal: true, minimum: { active: false, value: '' } } });
  return { body, age: age.id, weight: weight.id, temp: temp.id };
}

describe('number keyboards', () => {
  it('offers the number pad for answers that cannot be negative, and a keyboard with a minus sign otherwise', () => {
    const f = form();
    renderWithProviders(
      <FormRenderer
        body={f.body}
        lang="en"
        answers={{}}
        onChange={() => undefined}
        shown={visibility(f.body, { schemaId: 1, answers: {} })}
        problems={new Map()}
        responseId="r"
        projectId={1}
      />,
    );
    const input = (id: number) => document.getElementById(`q${id}-input`)!;
    expect(input(f.age)).toHaveAttribute('inputmode', 'numeric');
    expect(input(f.weight)).toHaveAttribute('inputmode', 'decimal');
    expect(input(f.temp)).not.toHaveAttribute('inputmode');
    expect(input(f.temp)).toHaveAttribute('type', 'number');
    expect(screen.getByText('Temperature')).toBeVisible();
  });
});
