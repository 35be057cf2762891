import type { ShaderMessage } from '../gpu/index.ts';

export interface ShownError {
  readonly title: string;
  readonly message: string;
  readonly hint: string;
  readonly messages?: readonly ShaderMessage[];
}

/** A failure as a person needs it: what happened, where (file:line:column), what to do. */
export function ShaderErrorView({ error }: { error: ShownError }) {
  const compilerErrors = (error.messages ?? []).filter((m) => m.severity === 'error');
  return (
    <div className="banner banner-error" role="alert" data-testid="run-error">
      <h3>
        <span aria-hidden="true">✗ </span>
        {error.title}
      </h3>
      {compilerErrors.length > 0 ? (
        <ul className="compiler-messages">
          {compilerErrors.map((m, i) => (
            <li key={i}>
              <p>
                <strong data-testid="error-location">
                  {m.file ?? 'kernel.wgsl'}:{m.line}:{m.column}
                </strong>{' '}
                — line {m.line}, column {m.column}: {m.message}
              </p>
              {m.sourceLine !== undefined && (
                <pre className="source-excerpt" aria-label={`Line ${m.line} of the kernel`}>
                  {m.sourceLine}
                  {'\n'}
                  {' '.repeat(Math.max(0, m.column - 1))}^
                </pre>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>{error.message}</p>
      )}
      <p className="hint">{error.hint}</p>
    </div>
  );
}
