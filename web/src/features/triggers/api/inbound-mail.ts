import { useQuery } from '@tanstack/react-query';
import { loadRuntimeConfig } from '../../../app/runtime-config';

/**
 * Whether this deployment receives mail for mail triggers: /config.json's `inboundMail`, false where
 * Amazon SES receives no mail in the deployment's region (the API then answers a mail trigger with
 * 409 inbound_mail_unavailable).
 */
export function useInboundMail() {
  return useQuery({ queryKey: ['runtime-config'], queryFn: loadRuntimeConfig, staleTime: Number.POSITIVE_INFINITY, select: (config) => config.inboundMail });
}
