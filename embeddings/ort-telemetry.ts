// ONNX Runtime's usage telemetry, kept off. From 1.29 on, its Linux and macOS builds report to
// Microsoft as its Windows builds do (1DS: a process-information event, then session, model, provider
// and error events), keep a device identifier (.ses) in the temporary folder ($TMPDIR or /tmp) and
// leave an empty mat-debug-PID.log there behind every process that creates ORT's environment: a
// thousand of them in /tmp after a day of test runs here. It keeps quiet where it sees a CI variable. intentsim computes embeddings of its users' data on their machines and says nothing
// about them to anyone, so it sets ORT_DISABLE_TELEMETRY=1, ORT's documented opt-out, unless the
// user has set the variable to something else (then theirs stands).
//
// ORT reads the variable from the process's environment once, when its environment is created,
// whichever thread does it. A worker thread's process.env is its own copy, which native code does
// not see: a pool whose threads open ORT sessions calls this on the thread that starts it.

/** The environment variable ONNX Runtime reads: "1" turns its telemetry off for the process. */
export const ORT_TELEMETRY_VARIABLE = 'ORT_DISABLE_TELEMETRY';

/** Sets ORT_DISABLE_TELEMETRY=1 in this process's environment unless it is already set. */
export function keepOrtTelemetryOff(): void {
  process.env[ORT_TELEMETRY_VARIABLE] ??= '1';
}
