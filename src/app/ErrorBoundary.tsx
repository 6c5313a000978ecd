import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';

/** The crash page is never on a first screen: it loads when the page is idle (afterFirstScreen.ts), before anything can fail. */
const CrashPage = lazy(() => import('./CrashPage.tsx').then((module) => ({ default: module.CrashPage })));

interface State {
  error: Error | null;
}

/**
 * When drawing fails, the page says so and the graph stays in the store, unharmed (CrashPage.tsx
 * offers export, undo, try again). A blank page would hide all that.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    // The component stack is what a bug report needs; the graph itself is never logged.
    console.error(`Loopscope could not draw the page: ${error.message}${info.componentStack ?? ''}`);
  }

  private retry = () => this.setState({ error: null });

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      // Loaded when the page was first idle: a crash before then waits the moment it takes to load.
      <Suspense fallback={null}>
        <CrashPage error={error} retry={this.retry} />
      </Suspense>
    );
  }
}
