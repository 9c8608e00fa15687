import { describe, expect, it } from "vitest";
import { transfersClient, type TransfersClient } from "../transfers-front-helpers";
import {
  asTestServer,
  chaosRandom,
  createOnce,
  finishScenario,
  seededRandom,
  sleep,
  startScenario,
  transferPlan,
  useChaosWorld,
  type ChaosSource,
  type DaemonProcess,
  type SeededRandom,
} from "./world";

const TRANSFERS = 200;
const SOURCES = 20;
const KILLS = 10;
/**
 * Pool of each daemon process (its pg-boss pool, 10 + 1, comes on top): up to three daemons run
 * at once (an overlap plus the armed one), and other chaos files share the server (CI's embedded
 * PostgreSQL allows 300 connections, a developer's often 100).
 */
const DAEMON_ENV = { DB_POOL_MAX: "5" };
const WEB_ENV = { DB_POOL_MAX: "6" };
/** Bound on waiting for everything to settle and be delivered once the kills are over. */
const SETTLE_MS = 150_000;

/**
 * Issue 16 §2: the daemon (a real process, as production runs it) is SIGKILLed at random
 * moments while 200 transfers from 20 wallets go through the pipeline (two daemons at a time, see
 * killRepeatedly); a new daemon is started after each kill, mostly before the old one dies, and
 * once one is armed to kill itself right after `eth_sendRawTransaction` (before the send is
 * recorded). The web server stays up, in a process of its own (apps/web/server.ts, as `./qc start`
 * runs it): in this one it would share a thread with the devnet, the signer and the webhook
 * receiver, and slow them all.
 */
describe("chaos: the daemon SIGKILLed at random moments during 200 transfers", () => {
  const world = useChaosWorld({ devnet: { blockTimeMs: 250 } });

  it(
    "completes every transfer exactly once on chain, conserves balances and delivers every status event",
    { timeout: 300_000 },
    async () => {
      const { seed, random } = chaosRandom("daemon-kill", 160_201);
      const w = world();
      const web = await w.startWeb("web", { env: WEB_ENV });
      const server = () => asTestServer(web.endpoint);
      const startDaemon = (id: string, options: { crashAfter?: "transfers.broadcast:sent" } = {}) =>
        w.startDaemon(id, { ...options, env: DAEMON_ENV });
      const daemons: DaemonProcess[] = [await startDaemon(`kill-${seed}-a0`)];
      const scenario = await startScenario(w.ground, {
        name: "daemon-kill",
        server,
        sources: SOURCES,
        signerEndpoints: () => [web.endpoint],
      });

      const load = createTransfers(transfersClient(server, scenario.tenant.authorization), scenario.sources, random);
      const kills = await killRepeatedly(startDaemon, daemons, seed, load.done);
      const createdIds = await load.promise;
      console.log(`[chaos] daemon-kill: ${createdIds.length} transfers created, ${kills} kills in ${scenario.seconds()} s`);
      expect(kills).toBeGreaterThanOrEqual(KILLS);

      await finishScenario(scenario, {
        createdIds,
        transactions: TRANSFERS,
        timeoutMs: SETTLE_MS,
        figures: () => ({ daemonUpSeconds: daemons.map((daemon) => Number(seconds(daemon.upMs))).sort((a, b) => a - b) }),
      });
    },
  );
});

/** 200 transfers spread over the first part of the run, round-robin over the sources, amounts from the PRNG. */
function createTransfers(api: TransfersClient, sources: ChaosSource[], random: SeededRandom) {
  const plan = transferPlan(sources, random, TRANSFERS, [0, 120]);
  let finished = false;
  const promise = (async () => {
    const ids: string[] = [];
    for (const step of plan) {
      ids.push(await createOnce(api, step.body, "chaos-kill"));
      await sleep(step.pauseMs);
    }
    finished = true;
    return ids;
  })();
  promise.catch(() => (finished = true));
  return { promise, done: () => finished };
}

/**
 * Kills daemons at random moments (at least KILLS times, and on until the load is created). Two
 * lineages run side by side, each with its own PRNG from the seed: in each, the running daemon is
 * killed after a short pause and replaced, the successor started before the kill (overlap) or
 * after it; when both lineages are between a kill and their successor's start, no daemon runs at
 * all. Two lineages halve the time the kills take without making any kill gentler: a daemon start
 * (seconds of CPU under tsx, tens of seconds on a loaded machine) is what paces one lineage.
 * After the third kill an extra daemon armed with DAEMON_CRASH_AFTER=transfers.broadcast:sent
 * runs beside them: whichever daemon takes the next broadcast, the armed one dies right after its
 * first send, before recording it.
 */
async function killRepeatedly(
  startDaemon: (id: string, options?: { crashAfter?: "transfers.broadcast:sent" }) => Promise<DaemonProcess>,
  daemons: DaemonProcess[],
  seed: number,
  loadDone: () => boolean,
): Promise<number> {
  let kills = 0;
  let armedRun = false;
  const more = () => kills < KILLS || !loadDone();
  const start = async (id: string) => {
    const daemon = await startDaemon(id);
    daemons.push(daemon);
    return daemon;
  };

  const lineage = async (name: string, index: number, first: DaemonProcess) => {
    const random = seededRandom(seed + index * 7919);
    let current = first;
    for (let generation = 1; more(); generation += 1) {
      // Short pauses: a kill strands the dead daemon's claimed jobs until their heartbeat goes
      // stale (queue.ts: 15 s + a supervise pass) whatever the pause, so longer ones only add time.
      await sleep(random.int(500, 4_000));
      if (!more()) break;
      // Mostly overlapping: the successor is up before the kill, so the pipeline keeps a worker.
      const overlap = random.next() < 0.6;
      const next = `kill-${seed}-${name}${generation}`;
      const victim = current;
      if (overlap) {
        current = await start(next);
        victim.kill("SIGKILL");
        await victim.exited;
      } else {
        victim.kill("SIGKILL");
        await victim.exited;
        current = await start(next);
      }
      kills += 1;
      console.log(
        `[chaos] kill ${kills}: ${victim.instanceId} (${overlap ? "after its successor started" : "then restarted"}, successor up in ${seconds(current.upMs)} s, ${seconds(current.selfUpMs)} s by its own clock)`,
      );
      if (kills >= 3 && !armedRun) {
        armedRun = true;
        const armed = await startDaemon(`kill-${seed}-armed`, { crashAfter: "transfers.broadcast:sent" });
        const exit = await Promise.race([armed.exited, sleep(20_000).then(() => undefined)]);
        if (exit) kills += 1;
        else armed.kill("SIGKILL");
        console.log(`[chaos] armed daemon ${exit ? `crashed itself (${exit.signal ?? exit.code})` : "did not broadcast in 20 s; killed"}`);
        await armed.exited;
      }
    }
  };

  const second = await start(`kill-${seed}-b0`);
  await Promise.all([lineage("a", 1, daemons[0]!), lineage("b", 2, second)]);
  return kills;
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(1);
