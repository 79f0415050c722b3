import type { Detector, DetectorName } from '#shared/scans/model';
import { accessibilityDetector } from '#shared/scans/detectors/accessibility';
import { aiReadinessDetector } from '#shared/scans/detectors/ai-readiness';
import { securityDetector } from '#shared/scans/detectors/security';

const DETECTORS: Record<DetectorName, Detector> = {
  accessibility: accessibilityDetector,
  security: securityDetector,
  ai_readiness: aiReadinessDetector,
};

export function detectorNamed(name: DetectorName): Detector {
  return DETECTORS[name];
}
