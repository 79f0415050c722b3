import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface InitialJavaScript {
  /** The files a first visit loads before the app can run: entry scripts and their module preloads. */
  files: { path: string; bytes: number; gzipBytes: number }[];
  bytes: number;
  gzipBytes: number;
}

/**
 * What a browser must download to start the dashboard, gzipped as CloudFront would serve it. Read
 * from the built index.html, so code split into lazy chunks counts only once a page asks for it.
 */
export function measureInitialJavaScript(distDir: string): InitialJavaScript {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const paths = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"/g)) paths.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"/g)) paths.add(match[1]);
  const files = [...paths].map((path) => {
    const content = readFileSync(join(distDir, path.replace(/^\//, '')));
    return { path, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { files, bytes: files.reduce((sum, file) => sum + file.bytes, 0), gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}
