import { Component, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import { ui } from '../../i18n/ui.ts';
import { clearPanelFailure, isPanelFailing, subscribePanelFailures, TEST_HOOKS } from '../../workbench/testHooks.ts';

interface Props {
  /** Names the panel in tests (`data-panel`) and in the test hook that makes it throw. */
  readonly id: string;
  /** What a person calls this panel, in the current language: “The warp grid”. */
  readonly title: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: Error | undefined;
  /** Bumped by "Reload this panel": the panel mounts afresh. */
  readonly attempt: number;
}

/** A message for the box: long ones are cut (the console has the whole of it). */
const clip = (m: string) => (m.length > 300 ? `${m.slice(0, 300)}…` : m);

/** Test builds only: throws while a test has asked this panel to fail. */
function FailWhenAsked({ id }: { id: string }) {
  const failing = useSyncExternalStore(subscribePanelFailures, () => isPanelFailing(id));
  if (failing) throw new Error(`The test hook made the panel “${id}” throw.`);
  return null;
}

/**
 * Keeps a failing panel (or page) in its own box: what happened and a button that reloads just
 * this panel, while the rest of the page keeps working. The error goes to the console with its
 * component stack. The lesson and lab state lives outside the panel (store, URL, storage), so a
 * reload loses none of it.
 */
export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: undefined, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    if (TEST_HOOKS) clearPanelFailure(this.props.id);
    console.error(`Warpscope: ${this.props.title.slice(0, 1).toLowerCase() + this.props.title.slice(1)} failed and was replaced by an error box.`, error, `\nComponent stack:${info.componentStack ?? ' (unknown)'}`);
  }

  private reload = () => this.setState((s) => ({ error: undefined, attempt: s.attempt + 1 }));

  override render(): ReactNode {
    const { id, title, children } = this.props;
    const { error, attempt } = this.state;
    if (error) {
      return (
        <section className="banner banner-error panel-error" role="alert" data-testid="panel-error" data-panel={id}>
          <h2>
            <span aria-hidden="true">⚠ </span>
            {ui('panel.failed', { title: title.slice(0, 1).toUpperCase() + title.slice(1) })}
          </h2>
          <p>
            {ui('panel.failedWith')} <code>{clip(error.message || error.name)}</code>
          </p>
          <p>{ui('panel.restWorks')}</p>
          <button type="button" onClick={this.reload} data-testid="panel-reload">
            {ui('panel.reload')}
          </button>
        </section>
      );
    }
    return (
      <PanelBody key={attempt} id={id}>
        {children}
      </PanelBody>
    );
  }
}

function PanelBody({ id, children }: { id: string; children: ReactNode }) {
  return (
    <>
      {TEST_HOOKS && <FailWhenAsked id={id} />}
      {children}
    </>
  );
}
