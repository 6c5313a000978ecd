/**
 * Component tests in happy-dom: mounts an element in a fresh container inside `act`, and
 * unmounts it after each test of the file that calls `unmountAfterEach` once.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let unmount: () => void = () => {};

export const unmountAfterEach = () => afterEach(() => unmount());

export const mountForTest = (element: React.ReactNode): HTMLDivElement => {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(element));
  unmount = () => {
    act(() => root.unmount());
    container.remove();
  };
  return container;
};
