// @vitest-environment happy-dom
import { act } from 'react';
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
