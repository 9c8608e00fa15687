"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isUnauthenticated } from "../../src/dashboard/api-error";
import type { DaemonInstance, FailedJob, QueueOverview } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";
import { DataTable, type Column } from "../_components/data-table";
import { ErrorNotice, Loading, QueryView } from "../_components/states";
import { StatusBadge } from "../_components/status-badge";
import { NextAttempt, Time } from "../_components/time";
import { OperatorSecurity } from "./security";
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
        <OperatorSecurity />
      </main>
    </div>
  );
}

const QUEUE_COLUMNS: Column<QueueOverview>[] = [
  { header: "Queue", rowHeader: true, cell: (queue) => <code>{queue.name}</code> },
  { header: "Queued", cellProps: () => ({ "data-count": "queued" }), cell: (queue) => queue.queued },
  { header: "Due now", cell: (queue) => queue.ready },
  { header: "Active", cellProps: () => ({ "data-count": "active" }), cell: (queue) => queue.active },
  { header: "Failed", cellProps: () => ({ "data-count": "failed" }), cell: (queue) => queue.failed },
  {
    header: "Dead letter",
    cellProps: () => ({ "data-count": "deadLettered" }),
    cell: (queue) => (queue.deadLettered > 0 ? <StatusBadge status="DEAD_LETTERED">{queue.deadLettered}</StatusBadge> : 0),
  },
  { header: "Oldest due job", cell: (queue) => age(queue.oldestReadyAgeSeconds) },
  { header: "Last hour (jobs per minute)", cell: (queue) => <Sparkline queue={queue} /> },
];

const DAEMON_COLUMNS: Column<DaemonInstance>[] = [
  { header: "Instance", cellProps: () => ({ className: "mono" }), cell: (instance) => instance.instanceId },
  { header: "Status", cell: (instance) => <StatusBadge status={instance.status} /> },
  {
    header: "Last heartbeat",
    cell: (instance) => (
      <>
        {age(instance.lastBeatAgeSeconds)} ago{" "}
        <span className="small muted">
          (<Time at={instance.lastBeatAt} />)
        </span>
      </>
    ),
  },
  {
    header: "Host / PID",
    cell: (instance) => (
      <>
        {instance.hostname} / {instance.pid}
      </>
    ),
  },
  { header: "Version", cell: (instance) => instance.version },
  { header: "Started", cell: (instance) => <Time at={instance.startedAt} /> },
];

function Queues() {
  const trpc = useTRPC();
  const queues = useQuery({ ...trpc.operators.queues.queryOptions(), refetchInterval: POLL_MS });
  return (
    <section aria-labelledby="queues-heading">
      <h2 id="queues-heading">Job queues</h2>
      <QueryView query={queues} what="queues" errorTitle="Could not load the queues">
        {(data) => (
          <DataTable
            testId="queues"
            columns={QUEUE_COLUMNS}
            rows={data.queues}
            rowKey={(queue) => queue.name}
            rowProps={(queue) => ({ "data-testid": "queue-row", "data-queue": queue.name })}
            legend={<p className="small muted">Chart: blue created, green completed, red failed.</p>}
          />
        )}
      </QueryView>
    </section>
  );
}

function Daemons() {
  const trpc = useTRPC();
  const daemons = useQuery({ ...trpc.operators.daemons.queryOptions(), refetchInterval: POLL_MS });
  return (
    <section aria-labelledby="daemons-heading">
      <h2 id="daemons-heading">Daemon instances</h2>
      <QueryView
        query={daemons}
        what="daemons"
        errorTitle="Could not load the daemons"
        empty={(data) => data.instances.length === 0 && "No daemon has reported: nothing is working the queues."}
      >
        {(data) => (
          <DataTable
            testId="daemons"
            columns={DAEMON_COLUMNS}
            rows={data.instances}
            rowKey={(instance) => instance.instanceId}
            rowProps={() => ({ "data-testid": "daemon-row" })}
          />
        )}
      </QueryView>
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
  const columns: Column<FailedJob>[] = [
    { header: "Job", cellProps: () => ({ className: "mono small" }), cell: (job) => job.id },
    { header: "Queue", cell: (job) => <code>{job.sourceQueue}</code> },
    {
      header: "Status",
      cell: (job) => (
        <>
          <StatusBadge status={job.status} />
          <NextAttempt at={job.nextAttemptAt} />
          <div className="small muted">{job.retryCount} retries</div>
        </>
      ),
    },
    { header: "Error", cellProps: () => ({ className: "small" }), cell: (job) => job.error ?? "—" },
    { header: "Failed", cell: (job) => <Time at={job.failedAt ?? job.createdAt} /> },
    {
      header: "Actions",
      cell: (job) => (
        <div className="actions">
          {job.status !== "RETRYING" && (
            <button type="button" className="small" onClick={() => retry.mutate({ jobId: job.id })} disabled={retry.isPending}>
              Retry job
            </button>
          )}
          {job.status !== "FAILED" && (
            <button
              type="button"
              className="secondary small"
              onClick={() => window.confirm("Cancel this job? It will not run again.") && cancel.mutate({ jobId: job.id })}
              disabled={cancel.isPending}
            >
              Cancel job
            </button>
          )}
        </div>
      ),
    },
  ];
  return (
    <section aria-labelledby="failed-heading">
      <h2 id="failed-heading">Failed jobs</h2>
      <ErrorNotice error={retry.error ?? cancel.error} />
      <QueryView
        query={jobs}
        what="failed jobs"
        errorTitle="Could not load failed jobs"
        empty={(data) => data.jobs.length === 0 && "No failed jobs."}
      >
        {(data) => (
          <DataTable
            testId="failed-jobs"
            columns={columns}
            rows={data.jobs}
            rowKey={(job) => job.id}
            rowProps={(job) => ({ "data-testid": "failed-job-row", "data-job-id": job.id })}
          />
        )}
      </QueryView>
    </section>
  );
}
