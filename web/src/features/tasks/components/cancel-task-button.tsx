import { ConfirmDialog } from '../../../components/confirm-dialog';
import { IfAllowed } from '../../../components/if-allowed';
import { FINISHED, useCancelTask, type Task } from '../api/tasks';

/** `Cancel`, for operators, while the task can still be cancelled; asks first. */
export function CancelTaskButton({ task }: { task: Task }) {
  const cancel = useCancelTask(task);
  if (FINISHED.includes(task.status)) return null;
  return (
    <IfAllowed role="operator">
      <ConfirmDialog
        trigger={
          <button type="button" className="button danger">
            Cancel
          </button>
        }
        title="Cancel this task?"
        description="The agent stops at its next step and partial artifacts are discarded. This cannot be undone."
        confirmLabel="Cancel task"
        danger
        onConfirm={() => cancel.mutateAsync()}
      />
    </IfAllowed>
  );
}
