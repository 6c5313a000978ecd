// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { EAGER_OPTIONS, LazySelect } from './LazySelect.tsx';
import { mountForTest, unmountAfterEach } from './mountForTest.tsx';

unmountAfterEach();

const mount = (element: React.ReactNode) => mountForTest(element).querySelector('select')!;

const choices = (count: number) => Array.from({ length: count }, (_, index) => ({ value: `n${index}`, label: `Node ${index}` }));

describe('LazySelect', () => {
  it('holds a short list all the time', () => {
    const select = mount(<LazySelect aria-label="Node" value="" onChange={() => {}} fixed={[{ value: '', label: '(choose)' }]} choices={choices(EAGER_OPTIONS)} />);
    expect(select.options).toHaveLength(EAGER_OPTIONS + 1);
  });

  it('holds a long list only while in use, showing the chosen value meanwhile', () => {
    const select = mount(<LazySelect aria-label="Node" value="n70" onChange={() => {}} fixed={[{ value: '', label: '(choose)' }]} choices={choices(200)} />);
    expect([...select.options].map((option) => option.value)).toEqual(['', 'n70']);
    expect(select.value).toBe('n70');
    act(() => select.dispatchEvent(new FocusEvent('focusin', { bubbles: true })));
    expect(select.options).toHaveLength(201);
    expect(select.value).toBe('n70');
    act(() => select.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(select.options).toHaveLength(2);
  });
});
