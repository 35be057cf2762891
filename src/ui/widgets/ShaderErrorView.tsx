import { ui } from '../../i18n/ui.ts';
import { excerptAround, SHOWN_MESSAGES, type ShaderMessage } from '../../workbench/gpu.ts';

export interface ShownError {
  readonly title: string;
  readonly message: string;
  readonly hint: string;
  readonly messages?: readonly ShaderMessage[];
}

/**
 * A failure as a person needs it: what happened, where (file:line:column), what to do. Shows the
 * first `SHOWN_MESSAGES` compiler errors, each with a window of its line around the column (a
 * 1 MB line is not repeated under every message), and says how many more there are.
 */
export function ShaderErrorView({ error }: { error: ShownError }) {
  const compilerErrors = (error.messages ?? []).filter((m) => m.severity === 'error');
  const shown = compilerErrors.slice(0, SHOWN_MESSAGES);
  const more = compilerErrors.length - shown.length;
  return (
    <div className="banner banner-error" role="alert" data-testid="run-error">
      <h3>
        <span aria-hidden="true">✗ </span>
        {error.title}
      </h3>
      {shown.length > 0 ? (
        <ul className="compiler-messages">
          {shown.map((m, i) => {
            const excerpt = m.sourceLine !== undefined ? excerptAround(m.sourceLine, m.column) : undefined;
            return (
              <li key={i}>
                <p>
                  <strong data-testid="error-location">
                    {m.file ?? 'kernel.wgsl'}:{m.line}:{m.column}
                  </strong>{' '}
                  {ui('shaderError.where', { line: m.line, column: m.column, message: m.message })}
                </p>
                {excerpt && (
                  <pre className="source-excerpt" aria-label={ui('shaderError.excerpt', { line: m.line, column: m.column })}>
                    {excerpt.text}
                    {'\n'}
                    {' '.repeat(excerpt.caret - 1)}^
                  </pre>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p>{error.message}</p>
      )}
      {more > 0 && (
        <p data-testid="more-errors">
          {ui('shaderError.more', { n: more })}
        </p>
      )}
      <p className="hint">{error.hint}</p>
    </div>
  );
}
