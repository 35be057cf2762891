import { GpuStatusPanel } from '../views/GpuStatusPanel.tsx';
import { VectorAddPanel } from '../views/VectorAddPanel.tsx';

export function App() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <h1>
          <span className="logo" aria-hidden="true">
            ▮▮▮▮
          </span>{' '}
          Warpscope
        </h1>
        <p className="tagline">GPU parallel programming, on your GPU and warp by warp.</p>
      </header>
      <main id="main" tabIndex={-1}>
        <GpuStatusPanel />
        <VectorAddPanel />
      </main>
    </div>
  );
}
