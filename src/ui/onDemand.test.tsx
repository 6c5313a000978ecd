// @vitest-environment happy-dom
import { act, useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { mountForTest, unmountAfterEach } from './mountForTest.tsx';
import { onDemand } from './onDemand.ts';

unmountAfterEach();

const greeting = () => ({ Greeting: ({ name }: { name: string }) => <p>Hello {name}</p> });

describe('onDemand', () => {
  it('draws a module loaded ahead in the same render that wants it, with no fallback in between', async () => {
    const view = onDemand(async () => greeting());
    await view.load();
    function Shown() {
      const module = view.useModule(true);
      return module ? <module.Greeting name="Ada" /> : <p>Loading…</p>;
    }
    expect(mountForTest(<Shown />).textContent).toBe('Hello Ada');
  });

  it('loads a module when it is wanted and draws it once it is there, loading it once', async () => {
    let imports = 0;
    const view = onDemand(async () => {
      imports += 1;
      return greeting();
    });
    function Shown({ wanted }: { wanted: boolean }) {
      const module = view.useModule(wanted);
      return module ? <module.Greeting name="Grace" /> : <p>Loading…</p>;
    }
    const container = mountForTest(<Shown wanted />);
    expect(container.textContent).toBe('Loading…');
    await act(async () => {});
    expect(container.textContent).toBe('Hello Grace');
    await view.load();
    expect(imports).toBe(1);
  });

  it('draws a module that another part of the page loaded between its render and its effects', async () => {
    const module = greeting();
    // Loaded at once when asked: the race of a warm-up's load landing after the render that wanted it.
    // oxlint-disable-next-line unicorn/no-thenable -- a thenable that settles at once is that race, made exact
    const view = onDemand(() => ({ then: (loaded: (value: typeof module) => unknown) => Promise.resolve(loaded(module)) }) as unknown as Promise<typeof module>);
    function LoadsItNow() {
      useLayoutEffect(() => void view.load(), []);
      return null;
    }
    function Shown() {
      const shown = view.useModule(true);
      return shown ? <shown.Greeting name="Ada" /> : <p>Loading…</p>;
    }
    const container = mountForTest(
      <>
        <Shown />
        <LoadsItNow />
      </>,
    );
    await act(async () => {});
    expect(container.textContent).toBe('Hello Ada');
  });

  it('loads nothing while it is not wanted', async () => {
    let imports = 0;
    const view = onDemand(async () => {
      imports += 1;
      return greeting();
    });
    function Shown() {
      const module = view.useModule(false);
      return module ? <module.Greeting name="Grace" /> : <p>Not yet</p>;
    }
    const container = mountForTest(<Shown />);
    await act(async () => {});
    expect(container.textContent).toBe('Not yet');
    expect(imports).toBe(0);
  });
});
