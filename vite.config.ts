import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: false },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
