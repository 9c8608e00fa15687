"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isUnauthenticated } from "../../src/dashboard/api-error";
import type { FailedJob } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";
import { Empty, ErrorNotice, Loading } from "../_components/states";
import { StatusBadge } from "../_components/status-badge";
import { Time } from "../_components/time";
import { Sparkline } from "./sparkline";

const POLL_MS = 5_000;

function age(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** The operators' console: every job queue, every daemon, and the failed jobs to retry or cancel. */
export default function OperatorsPage() {
  const trpc = useTRPC();
  const me = useQuery(trpc.operators.me.queryOptions());
  const logout = useMutation(trpc.operators.logout.mutationOptions({ onSettled: () => window.location.assign("/operators/login") }));
  if (me.error) return isUnauthenticated(me.error) ? <Loading what="the login page" /> : <ErrorNotice error={me.error} />;
  if (!me.data) return <Loading what="your operator session" />;
  return (
    <div className="operators">
      <nav aria-label="Operators" className="banner">
        <strong>Quantum Custody · operators&apos; console</strong> · {me.data.email}{" "}
        <button type="button" className="secondary small" onClick={() => logout.mutate({})}>
          Log out
        </button>
      </nav>
      <main id="main">
        <h1>Operators&apos; console</h1>
        <p className="muted small">
          Updates every {POLL_MS / 1000} s. The same figures are exported at <code>GET /metrics</code> (Prometheus).
        </p>
        <Queues />
        <Daemons />
        <FailedJobs />
      </main>
    </div>
  );
}

function Queues() {
  const trpc = useTRPC();
  const queues = useQuery({ ...trpc.operators.queues.queryOptions(), refetchInterval: POLL_MS });
  return (
    <section aria-labelledby="queues-heading">
      <h2 id="queues-heading">Job queues</h2>
      {queues.error ? (
        <ErrorNotice error={queues.error} title="Could not load the queues" />
      ) : !queues.data ? (
        <Loading what="queues" />
      ) : (
        <div className="table-wrap">
          <table data-testid="queues">
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col">Queued</th>
                <th scope="col">Due now</th>
                <th scope="col">Active</th>
                <th scope="col">Failed</th>
                <th scope="col">Dead letter</th>
                <th scope="col">Oldest due job</th>
                <th scope="col">Last hour (jobs per minute)</th>
              </tr>
            </thead>
            <tbody>
              {queues.data.queues.map((queue) => (
                <tr key={queue.name} data-testid="queue-row" data-queue={queue.name}>
                  <th scope="row">
                    <code>{queue.name}</code>
                  </th>
                  <td data-count="queued">{queue.queued}</td>
                  <td>{queue.ready}</td>
                  <td data-count="active">{queue.active}</td>
                  <td data-count="failed">{queue.failed}</td>
                  <td data-count="deadLettered">{queue.deadLettered > 0 ? <StatusBadge status="DEAD_LETTERED">{queue.deadLettered}</StatusBadge> : 0}</td>
                  <td>{age(queue.oldestReadyAgeSeconds)}</td>
                  <td>
                    <Sparkline queue={queue} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small muted">Chart: blue created, green completed, red failed.</p>
        </div>
      )}
    </section>
  );
}

function Daemons() {
  const trpc = useTRPC();
  const daemons = useQuery({ ...trpc.operators.daemons.queryOptions(), refetchInterval: POLL_MS });
  return (
    <section aria-labelledby="daemons-heading">
      <h2 id="daemons-heading">Daemon instances</h2>
      {daemons.error ? (
        <ErrorNotice error={daemons.error} title="Could not load the daemons" />
      ) : !daemons.data ? (
        <Loading what="daemons" />
      ) : daemons.data.instances.length === 0 ? (
        <Empty>No daemon has reported: nothing is working the queues.</Empty>
      ) : (
        <div className="table-wrap">
          <table data-testid="daemons">
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Status</th>
                <th scope="col">Last heartbeat</th>
                <th scope="col">Host / PID</th>
                <th scope="col">Version</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {daemons.data.instances.map((instance) => (
                <tr key={instance.instanceId} data-testid="daemon-row">
                  <td className="mono">{instance.instanceId}</td>
                  <td>
                    <StatusBadge status={instance.status} />
                  </td>
                  <td>
                    {age(instance.lastBeatAgeSeconds)} ago <span className="small muted">(<Time at={instance.lastBeatAt} />)</span>
                  </td>
                  <td>
                    {instance.hostname} / {instance.pid}
                  </td>
                  <td>{instance.version}</td>
                  <td>
                    <Time at={instance.startedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function FailedJobs() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobs = useQuery({ ...trpc.operators.failedJobs.queryOptions(), refetchInterval: POLL_MS });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.operators.failedJobs.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.operators.queues.queryKey() });
  };
  const retry = useMutation(trpc.operators.retryJob.mutationOptions({ onSuccess: refresh }));
  const cancel = useMutation(trpc.operators.cancelJob.mutationOptions({ onSuccess: refresh }));
  return (
    <section aria-labelledby="failed-heading">
      <h2 id="failed-heading">Failed jobs</h2>
      <ErrorNotice error={retry.error ?? cancel.error} />
      {jobs.error ? (
        <ErrorNotice error={jobs.error} title="Could not load failed jobs" />
      ) : !jobs.data ? (
        <Loading what="failed jobs" />
      ) : jobs.data.jobs.length === 0 ? (
        <Empty>No failed jobs.</Empty>
      ) : (
        <div className="table-wrap">
          <table data-testid="failed-jobs">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Queue</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">Failed</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.jobs.map((job: FailedJob) => (
                <tr key={job.id} data-testid="failed-job-row" data-job-id={job.id}>
                  <td className="mono small">{job.id}</td>
                  <td>
                    <code>{job.sourceQueue}</code>
                  </td>
                  <td>
                    <StatusBadge status={job.status} />
                    {job.nextAttemptAt && (
                      <div className="small muted">
                        next attempt <Time at={job.nextAttemptAt} />
                      </div>
                    )}
                    <div className="small muted">{job.retryCount} retries</div>
                  </td>
                  <td className="small">{job.error ?? "—"}</td>
                  <td>
                    <Time at={job.failedAt ?? job.createdAt} />
                  </td>
                  <td>
                    <div className="actions">
                      {job.status !== "RETRYING" && (
                        <button type="button" className="small" onClick={() => retry.mutate({ jobId: job.id })} disabled={retry.isPending}>
                          Retry job
                        </button>
                      )}
                      {job.status !== "FAILED" && (
                        <button type="button" className="secondary small" onClick={() => window.confirm("Cancel this job? It will not run again.") && cancel.mutate({ jobId: job.id })} disabled={cancel.isPending}>
                          Cancel job
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
