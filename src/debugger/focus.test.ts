// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { focusTimeline, focusTimelineIfAsked } from './focus.ts';

const addButton = () => {
  const button = document.createElement('button');
  document.body.append(button);
  return button;
};

const addTimeline = () => {
  const list = document.createElement('div');
  list.setAttribute('role', 'list');
  list.setAttribute('aria-label', 'Timeline');
  list.tabIndex = -1;
  document.body.append(list);
  return list;
};

afterEach(() => {
  focusTimelineIfAsked();
  document.body.replaceChildren();
});

describe('the focus asked for the timeline', () => {
  it('goes to the timeline at once when it is on screen', () => {
    const list = addTimeline();
    focusTimeline();
    expect(document.activeElement).toBe(list);
  });

  it('waits for a timeline not on screen yet (its panel loading), and goes there when it comes', () => {
    const run = addButton();
    run.focus();
    focusTimeline();
    expect(document.activeElement).toBe(run);
    const list = addTimeline();
    focusTimelineIfAsked();
    expect(document.activeElement).toBe(list);
  });

  it('is not taken when the person moved the focus meanwhile, nor twice', () => {
    const run = addButton();
    const elsewhere = addButton();
    run.focus();
    focusTimeline();
    elsewhere.focus();
    const list = addTimeline();
    focusTimelineIfAsked();
    expect(document.activeElement).toBe(elsewhere);
    run.focus();
    focusTimelineIfAsked();
    expect(document.activeElement).toBe(run);
    expect(list).not.toBe(document.activeElement);
  });
});
