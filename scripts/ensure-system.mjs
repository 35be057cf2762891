#!/usr/bin/env node
// Makes sure the system pieces the tests need are here: Chromium (e2e, WebGPU on SwiftShader) and
// the Vulkan loader (Dawn in Node, for the GPU unit tests). As root with apt-get it installs
// Debian's packages and says so; otherwise it stops with instructions.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export function findChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    console.error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
  }
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
    if (found) return found;
  }
  return CANDIDATES.find((p) => existsSync(p));
}

function hasVulkanLoader() {
  const out = spawnSync('sh', ['-c', 'ldconfig -p 2>/dev/null | grep -q "libvulkan.so.1"'], { encoding: 'utf8' });
  return out.status === 0;
}

function canApt() {
  return process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
}

function aptInstall(packages) {
  console.log(`Installing Debian packages: ${packages.join(', ')} (apt-get, as root)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
}

export function ensureSystem() {
  const missing = [];
  if (!findChromium()) missing.push('chromium');
  if (!hasVulkanLoader()) missing.push('libvulkan1');
  if (missing.length === 0) return findChromium();
  if (canApt()) {
    aptInstall(missing);
  } else {
    console.error(
      [
        `Missing for the tests: ${missing.join(', ')}.`,
        'Install them, for example on Debian/Ubuntu:  sudo apt-get install chromium libvulkan1',
        'or point CHROMIUM_PATH at a Chromium or Chrome binary (version 113 or newer).',
      ].join('\n'),
    );
    process.exit(2);
  }
  const chromium = findChromium();
  if (!chromium) {
    console.error('Chromium is still missing after installing; set CHROMIUM_PATH.');
    process.exit(2);
  }
  return chromium;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Chromium: ${ensureSystem()}`);
}
