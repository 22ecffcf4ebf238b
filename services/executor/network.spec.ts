import { describe, expect, it } from "vitest";
import { ENVELOPE_PROGRAM } from "../shared/envelope/program.js";
import { CodedError } from "../shared/errors.js";
import { launchFor, type LaunchSpec } from "./network.js";

// host_netns that is certainly not this process's own namespace file.
const elsewhere = {
  shell: "/bin/bash",
  max_concurrent: 4,
  queue: 16,
  stdout_cap_bytes: 1,
  stderr_cap_bytes: 1,
  private_network: true,
  snapshot: "none" as const,
  host_netns: "/nonexistent/ns/net",
};
const words = ["ns=pid", "--", "/bin/bash", "-c", "apt-get update"];
const perl = ["/usr/bin/perl", "-e", ENVELOPE_PROGRAM, ...words];
const spec: LaunchSpec = { cwd: "/srv", timeoutS: 60, env: { PATH: "/usr/bin", HOME: "/root" } };

describe("launchFor (network for rules flagged `network`)", () => {
  it("no network granted → the envelope as it is (the warm server builds it), whatever the driver", () => {
    for (const network of ["nsenter", "systemd-run", "off"] as const) {
      expect(launchFor(words, spec, false, { ...elsewhere, network })).toEqual({ kind: "envelope", args: words });
    }
  });

  it("granted, driver off → refused with NETWORK_UNAVAILABLE before anything runs", () => {
    expect(() => launchFor(words, spec, true, { ...elsewhere, network: "off" })).toThrow(CodedError);
    expect(() => launchFor(words, spec, true, { ...elsewhere, network: "off" })).toThrow(/NETWORK_UNAVAILABLE/);
  });

  it("granted, nsenter → the envelope program started inside host_netns, its status on fd 3", () => {
    expect(launchFor(words, spec, true, { ...elsewhere, network: "nsenter" })).toEqual({
      kind: "exec",
      args: ["nsenter", "--net=/nonexistent/ns/net", "--", ...perl],
    });
  });

  it("granted, systemd-run → a transient service with PrivateNetwork=no, the scrubbed env, cwd and timeout (argv only: systemd is not PID 1 here)", () => {
    const l = launchFor(words, spec, true, { ...elsewhere, network: "systemd-run" });
    expect(l.kind).toBe("plain");
    expect(l.args[0]).toBe("systemd-run");
    expect(l.args).toEqual(
      expect.arrayContaining([
        "--wait",
        "--pipe",
        "--collect",
        "--property=PrivateNetwork=no",
        "--property=RuntimeMaxSec=60",
        "--working-directory=/srv",
        "--setenv=PATH=/usr/bin",
        "--setenv=HOME=/root",
      ]),
    );
    expect(l.args.slice(-4)).toEqual(["--", "/bin/bash", "-c", "apt-get update"]);
  });

  it("systemd-run: `$` is doubled so PID 1 expands nothing; secret values never go on its command line", () => {
    const l = launchFor([...words.slice(0, -1), 'echo "$HOME" ${PROXY_TOKEN}'], spec, true, { ...elsewhere, network: "systemd-run" });
    expect(l.args.slice(-1)).toEqual(['echo "$$HOME" $${PROXY_TOKEN}']);
    expect(() =>
      launchFor(words, { ...spec, env: { ...spec.env, DB_PASSWORD: "v" }, secretNames: ["DB_PASSWORD"] }, true, {
        ...elsewhere,
        network: "systemd-run",
      }),
    ).toThrow(/NETWORK_UNAVAILABLE.*env_secrets/);
    // nsenter passes the environment by execve: secrets are fine there.
    expect(launchFor(words, { ...spec, secretNames: ["DB_PASSWORD"] }, true, { ...elsewhere, network: "nsenter" }).args[0]).toBe("nsenter");
  });

  it("granted while already in host_netns → the envelope as it is", () => {
    expect(launchFor(words, spec, true, { ...elsewhere, network: "nsenter", host_netns: "/proc/self/ns/net" }).kind).toBe("envelope");
  });
});
