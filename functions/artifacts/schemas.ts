import * as z from '#shared/zod';
import { artifactIdParam, taskIdParam } from '#shared/http/common-schemas';

export const artifactParams = /* @__PURE__ */ z.schema(() => z.object({ artifact_id: artifactIdParam }));
export const listArtifactsQuery = /* @__PURE__ */ z.schema(() => z.object({ task_id: taskIdParam }));
