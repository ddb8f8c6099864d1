import { useEffect, useState } from 'preact/hooks';
import type { RunSummary } from '../protocol.js';
import { ActionError, fetchRuns } from './api.js';
import { shortId, when } from './format.js';

/** Every run of every source (Teamkit's, then Claude Code's teams), refreshed every few seconds. */
export function RunsView() {
  const [runs, setRuns] = useState<RunSummary[] | undefined>(undefined);
  const [problems, setProblems] = useState<string[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      fetchRuns().then(
        (listing) => {
          if (stopped) return;
          setRuns(listing.runs);
          setProblems(listing.problems);
          setError(undefined);
        },
        (failure: unknown) => {
          if (!stopped)
            setError(
              failure instanceof ActionError
                ? `${failure.code}: ${failure.message}`
                : String(failure),
            );
        },
      );
    void load();
    const timer = setInterval(load, 3_000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return (
    <main class="runs">
      <h1>Runs</h1>
      {error ? (
        <p role="alert" class="error-panel">
          {error}
        </p>
      ) : null}
      {problems.map((problem) => (
        <p key={problem} class="warning">
          Could not list {problem}
        </p>
      ))}
      {runs === undefined ? <p class="muted">Loading…</p> : null}
      {runs !== undefined && runs.length === 0 ? (
        <p class="muted">
          No runs yet. Start one with <code>team run start &lt;team&gt;</code>. Claude Code’s own
          agent teams are listed here too, from <code>$CLAUDE_CONFIG_DIR</code> (else{' '}
          <code>~/.claude</code>).
        </p>
      ) : null}
      {runs !== undefined && runs.length > 0 ? (
        <table class="runs-table">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Team</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Members</th>
              <th scope="col">Started</th>
              <th scope="col">Host</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={`${run.source}/${run.runId}`} data-run={run.runId} data-source={run.source}>
                <td>
                  <a class="mono" href={`#/run/${run.source}/${run.runId}/board`}>
                    {shortId(run.runId)}
                  </a>
                </td>
                <td>{run.teamName}</td>
                <td>
                  <span class={`status status-${run.status}`} title={run.statusReason}>
                    {run.status.replace('_', ' ')}
                  </span>
                </td>
                <td>
                  <progress max={Math.max(1, run.progress.total)} value={run.progress.done} />{' '}
                  {run.progress.done}/{run.progress.total}
                </td>
                <td>{run.members}</td>
                <td>{when(run.createdAt)}</td>
                <td>{run.host}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </main>
  );
}
