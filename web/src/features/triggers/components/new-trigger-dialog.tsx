import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../components/dialog';
import { useTriggerMutations } from '../api/triggers';
import { TriggerForm } from './trigger-form';

/** `New trigger`: the form in a dialog; a created trigger opens its page. */
export function NewTriggerDialog() {
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const { create } = useTriggerMutations();
  const navigate = useNavigate();
  return (
    <>
      <button type="button" className="button primary" onClick={() => (create.reset(), setFormKey(formKey + 1), setOpen(true))}>
        New trigger
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="New trigger" description="Start tasks on a schedule, whenever an agent emits an artifact of a type, for each mail sent to the trigger’s address, or for each matching message in a Slack channel.">
        <TriggerForm
          key={formKey}
          busy={create.isPending}
          error={create.error ?? undefined}
          onSubmit={(body) =>
            create.mutate(body, {
              onSuccess: (trigger) => {
                setOpen(false);
                navigate(`/triggers/${trigger.trigger_id}`);
              },
            })
          }
        />
      </Dialog>
    </>
  );
}
