import * as z from '#shared/zod';
import { artifactIdParam, taskIdParam } from '#shared/http/common-schemas';

export const artifactParams = z.object({ artifact_id: artifactIdParam });
export const listArtifactsQuery = z.object({ task_id: taskIdParam });
