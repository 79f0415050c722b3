import { signedCallbackHandler } from '#shared/http/signed-callback-handler';
import { forwardToProxy } from '#functions/integrations/slack-callback';
import { integrationParams } from '#functions/integrations/schemas';

/** POST /integrations/{integration_id}/slack/interactions: Slack's button clicks and modal submissions, signed. */
export const handler = signedCallbackHandler({ params: integrationParams }, (request) => forwardToProxy('interactions', request));
