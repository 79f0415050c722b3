import { signedCallbackHandler } from '#shared/http/signed-callback-handler';
import { forwardToProxy } from '#functions/integrations/slack-callback';
import { integrationParams } from '#functions/integrations/schemas';

/** POST /integrations/{integration_id}/slack/events: Slack's Events API (channel messages, url_verification), signed. */
export const handler = signedCallbackHandler({ params: integrationParams }, (request) => forwardToProxy('events', request));
