import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Architecture, Code, LayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { CHROMIUM_BIN_DIR_ENV } from '#shared/adapters/browser/chromium';
import { REPO_ROOT } from '#lib/constructs/gatehouse-function';

/**
 * Headless Chromium for the functions that render pages, as a layer: the brotli-packed binary,
 * fonts and libraries of @sparticuz/chromium (≈ 68 MB), which the function inflates into /tmp on
 * its first page. A layer rather than the function's asset: the function's code stays a few MB
 * and deploys fast, and the browser uploads once per version. The npm package carries the x86_64
 * build only, so the functions using it run on x86_64 (the very binary `npm test` runs here).
 */

const PACKAGE_DIR = join(REPO_ROOT, 'node_modules/@sparticuz/chromium');

/** Where the layer puts the packed browser (layers are extracted under /opt). */
export const CHROMIUM_LAYER_DIR = '/opt/chromium';

export const CHROMIUM_ARCHITECTURE = Architecture.X86_64;

/** Ephemeral storage of a rendering function: the inflated browser takes ≈ 200 MB of /tmp. */
export const CHROMIUM_EPHEMERAL_MB = 1024;

export function chromiumVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Copies the packed browser into the layer's `chromium/` folder; never fails over to Docker. */
class PackedChromium implements ILocalBundling {
  public tryBundle(outputDir: string): boolean {
    cpSync(join(PACKAGE_DIR, 'bin'), join(outputDir, 'chromium'), { recursive: true });
    return true;
  }
}

export function chromiumLayer(scope: Construct, id: string): LayerVersion {
  const version = chromiumVersion();
  return new LayerVersion(scope, id, {
    description: `Headless Chromium from @sparticuz/chromium ${version} (x86_64)`,
    // Hashed by the package's version rather than by 68 MB of bytes at every synth.
    code: Code.fromAsset(PACKAGE_DIR, { assetHashType: AssetHashType.CUSTOM, assetHash: `sparticuz-chromium-${version}`, bundling: { image: DockerImage.fromRegistry('dummy'), local: new PackedChromium() } }),
    compatibleRuntimes: [Runtime.NODEJS_24_X],
    compatibleArchitectures: [CHROMIUM_ARCHITECTURE],
  });
}

// Written out rather than imported: the launcher's module loads playwright-core, which synth does not need.
const BIN_DIR_ENV: typeof CHROMIUM_BIN_DIR_ENV = 'CHROMIUM_BIN_DIR';

/** The environment that points the browser launcher at the layer. */
export const CHROMIUM_ENVIRONMENT: Record<string, string> = { [BIN_DIR_ENV]: CHROMIUM_LAYER_DIR };
