import type { PermissionView } from '../protocol.js';
import { when } from './format.js';
import { useRunActions } from './ui-context.js';

/** Permission requests waiting for the lead, with approve and deny. */
export function PermissionsView(props: { permissions: PermissionView[] }) {
  const actions = useRunActions();
  const answer = (id: string, decision: 'approved' | 'denied') =>
    actions.act('answerPermission', { requestId: id, decision }, `Request ${decision}.`);
  return (
    <section class="permissions" aria-label="Permission requests">
      {props.permissions.length === 0 ? <p class="muted">No permission requests waiting.</p> : null}
      {props.permissions.map((request) => (
        <article class="permission" key={request.id} data-request={request.id}>
          <p>
            <strong>{request.member}</strong> asks to <strong>{request.action}</strong>
            {request.path ? (
              <>
                {' '}
                <code>{request.path}</code>
              </>
            ) : null}
          </p>
          {request.reason ? <p class="muted">{request.reason}</p> : null}
          <p class="muted">{when(request.requestedAt)}</p>
          <div class="form-buttons">
            <button
              type="button"
              class="primary"
              disabled={!actions.allowed('answerPermission')}
              onClick={() => answer(request.id, 'approved')}
            >
              Approve
            </button>
            <button
              type="button"
              class="danger"
              disabled={!actions.allowed('answerPermission')}
              onClick={() => answer(request.id, 'denied')}
            >
              Deny
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
