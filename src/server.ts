import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { Gate } from './gate.js';
import { resolveHome, type HomePaths } from './config/home.js';
import { loadConfig } from './config/load-config.js';
import { configTemplate } from './config/config-template.js';
import { acquireHomeLock } from './home-lock.js';
import { SIGN_IN_SUPPORT_MISSING, installedJose } from './credentials/sign-in-support.js';
import { createHttpSurface } from './surfaces/http-server.js';
import { createSocketSurface } from './surfaces/socket-server.js';
import { InFlight } from './surfaces/in-flight.js';
import { scanPending } from './scanning/scan-pending.js';
import { GateMetrics } from './metrics/gate-metrics.js';
import { answerLivez, answerMetrics, answerReadyz, type HealthSources } from './surfaces/health-routes.js';
import { createMetricsListener } from './surfaces/metrics-listener.js';
import { parseListenAddress, reachableHost, urlHost } from './config/listen-address.js';
import { publicUrl, publicUrlProblem } from './config/public-url.js';
import type { Server } from 'node:http';
import type { Clock } from './clock.js';
import type { Log } from './log.js';

export interface ServeOptions {
  home?: string;
  port?: number;
  /** The address to listen on (gate serve --host); server.host otherwise. */
  host?: string;
  /** Config values that win over file and environment, by `section.key` (tests set them in process). */
  settings?: Record<string, unknown>;
  /** An injected clock (tests of expiry); the system clock otherwise. */
  clock?: Clock;
  /** Where the operational log goes; stderr otherwise. */
  log?: Log;
  /** The operator says this home is the gate now, wherever it was placed (`--takeover`, journaled). */
  takeover?: boolean;
}

export interface RunningGate {
  gate: Gate;
  /** Where a client on this host reaches the gate (127.0.0.1 when it listens on every address). */
  url: string;
  /** server.public_url (else auth.issuer), where people reach it from elsewhere; null when unset. */
  publicUrl: string | null;
  /** The metrics the doors count and /metrics serves. */
  metrics: GateMetrics;
  /** The listener of server.metrics_address, when one is set. */
  metricsUrl: string | null;
  socketPath: string;
  /** The home directory served. */
  home: string;
  shutdown(reason: string): Promise<void>;
  /** What a shutdown under way is waiting for (null before one starts), for its deadline to name. */
  shutdownStep(): string | null;
  /**
   * What a shutdown past its deadline still does as the process ends: removes the socket
   * file and the home lock, so the home is free for the next start. Nothing of this
   * process writes the journal after it: the caller exits at once.
   */
  releaseHome(): void;
}

/** First start makes the home: the directory, gate.toml with every key, then the database and key. */
export function prepareHome(homeFlag?: string): HomePaths {
  const paths = resolveHome(homeFlag);
  // Files the gate creates (database, key, config) are the service account's alone.
  process.umask(0o077);
  mkdirSync(paths.home, { recursive: true });
  // Other local accounts must reach gate.sock (they are agents there) but may not list the home.
  chmodSync(paths.home, 0o711);
  if (!existsSync(paths.config)) writeFileSync(paths.config, configTemplate(), { mode: 0o600 });
  return paths;
}

const DRAIN_DEADLINE_MS = 20_000;

export async function serve(options: ServeOptions): Promise<RunningGate> {
  const paths = prepareHome(options.home);
  const flags = {
    ...(options.settings ?? {}),
    ...(options.port === undefined ? {} : { 'server.port': options.port }),
    ...(options.host === undefined ? {} : { 'server.host': options.host }),
  };
  const { config, sources } = loadConfig(paths.config, process.env, flags);
  const disagreement = publicUrlProblem(config);
  if (disagreement !== null) throw new Error(disagreement);
  const releaseLock = acquireHomeLock(paths.lock);
  let gate: Gate;
  try {
    gate = Gate.open(paths, config, {
      configOrigin: { sources, flags, savedForRestart: new Map() },
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.log === undefined ? {} : { log: options.log }),
      ...(options.takeover === true ? { takeover: true } : {}),
      serving: true,
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  if (installedJose === null) {
    gate.log.warn(`${SIGN_IN_SUPPORT_MISSING}; POST /oauth/token answers 503 server_error and a JWT bearer (a person's token, an agent's assertion) 401 unsupported`);
  }
  const inFlight = new InFlight();
  let draining = false;
  const isDraining = () => draining;
  const metrics = new GateMetrics({ house: gate, journalCounts: gate.journalCounts, walProgress: () => gate.walProgress() });
  const health: HealthSources = {
    notReady: () => (draining ? [{ reason: 'stopping', detail: 'the gate is shutting down: answering the requests in flight' }] : gate.notReady()),
    metrics,
  };
  const http = createHttpSurface(gate, {
    maxRequestBytes: config.mcp.max_request_bytes,
    maxInFlight: config.server.max_in_flight,
    maxInFlightPerIdentity: config.server.max_in_flight_per_credential,
    maxBodyBytesInFlight: config.server.max_body_bytes_in_flight,
    maxBodyBytesPerIdentity: config.server.max_body_bytes_per_identity,
    bodyTimeoutMs: config.server.body_timeout_ms,
    inFlight,
    isDraining,
    health,
    observer: metrics,
  });
  const socketServer = createSocketSurface(gate, { maxLineBytes: config.mcp.max_request_bytes, inFlight, isDraining, observer: metrics });
  const socketConnections = new Set<Socket>();
  socketServer.on('connection', (s: Socket) => {
    socketConnections.add(s);
    s.on('close', () => socketConnections.delete(s));
  });

  // The lock proves no live gate owns this home, so a socket file left here is stale.
  rmSync(paths.socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    socketServer.once('error', reject);
    socketServer.listen(paths.socket, () => resolve());
  });
  // Any local account may connect; the peer's uid decides its role.
  chmodSync(paths.socket, 0o666);
  const host = config.server.host;
  const metricsAddress = config.server.metrics_address === '' ? null : parseListenAddress(config.server.metrics_address);
  const metricsServer: Server | null =
    metricsAddress === null
      ? null
      : createMetricsListener(
          { livez: answerLivez, readyz: (res) => answerReadyz(gate, health, res), metrics: (res) => answerMetrics(health, res) },
          (error) => gate.log.error('the metrics listener failed', error),
        );
  try {
    await listen(http, config.server.port, host);
    if (metricsServer !== null) await listen(metricsServer, metricsAddress!.port, metricsAddress!.host);
  } catch (error) {
    // An address taken or not this host's: nothing was served, so the home is left as found.
    http.close();
    metricsServer?.close();
    socketServer.close();
    await gate.close();
    rmSync(paths.socket, { force: true });
    releaseLock();
    throw error;
  }
  const port = (http.address() as AddressInfo).port;
  const url = `http://${urlHost(reachableHost(host))}:${port}`;
  const metricsUrl = metricsServer === null ? null : `http://${urlHost(reachableHost(metricsAddress!.host))}:${(metricsServer.address() as AddressInfo).port}`;
  gate.listening({ http: url, socket: paths.socket });
  // What the scanner still owes (rows left in L0_RAW, rows an older scanner saw) is scanned
  // beside serving, with the deployment signing; a shutdown stops it after its current page.
  const startScan = scanPending(gate, Infinity, null, isDraining).then(
    (report) => {
      if (report.examined > 0) gate.log.info('scanned the rows the scanner owed', { ...report, skipped: JSON.stringify(report.skipped) });
    },
    (error: unknown) => gate.log.error('the start scan failed', error),
  );
  // Then the promoted rows an older scanner saw, in the background at its bounded rate, until the gate stops.
  void startScan.then(() => {
    if (!isDraining()) gate.pipeline.promotedRescan.start();
  });
  // The same facts as the start line on stdout, for whoever collects only the log; at a
  // terminal, where that line shows beside the log, only at debug (the start is one line).
  const listening = {
    url,
    host,
    socket: paths.socket,
    home: paths.home,
    deployment: gate.deployment.deploymentId,
    ...(publicUrl(config) === null ? {} : { public_url: publicUrl(config) }),
    ...(metricsUrl === null ? {} : { metrics: metricsUrl }),
    ...(config.server.trusted_proxies.length === 0 ? {} : { trusted_proxies: config.server.trusted_proxies.join(',') }),
  };
  if (gate.log.forPerson === true) gate.log.debug('listening', listening);
  else gate.log.info('listening', listening);

  let stopping: Promise<void> | null = null;
  let step: string | null = null;
  const releaseHome = () => {
    rmSync(paths.socket, { force: true });
    releaseLock();
  };
  // In order: stop accepting, drain, stop the background work, close the gate (its parts in
  // the reverse of their build: the review schedule, the pools, the threads, the database),
  // and only then free the home.
  const shutdown = (reason: string) =>
    (stopping ??= (async () => {
      gate.log.info(`shutting down (${reason}): answering requests in flight`);
      step = 'the requests in flight';
      draining = true;
      // Grading (scheduled or asked for) takes no more rows; what it already sent is answered and journaled.
      gate.review.grading.halt();
      http.close();
      http.closeIdleConnections();
      socketServer.close();
      await inFlight.idle(DRAIN_DEADLINE_MS);
      step = 'the start scan';
      await startScan;
      step = 'the background rescan';
      await gate.pipeline.promotedRescan.stop();
      step = 'the gate';
      await gate.close();
      step = 'the home';
      http.closeAllConnections();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      for (const s of socketConnections) s.destroy();
      releaseHome();
      step = 'stopped';
      gate.log.info('stopped');
      gate.log.flush();
    })());
  const shutdownStep = () => (step === 'the gate' ? `at ${gate.deployment.closing ?? 'the gate'}` : step === null ? null : `at ${step}`);

  return { gate, url, publicUrl: publicUrl(config), metrics, metricsUrl, socketPath: paths.socket, home: paths.home, shutdown, shutdownStep, releaseHome };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
