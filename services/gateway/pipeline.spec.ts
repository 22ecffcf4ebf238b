import { describe, expect, it } from "vitest";
import { effectiveCommand } from "./pipeline.js";

describe("effectiveCommand", () => {
  it("runs a mapped caller's command as that caller", () => {
    expect(effectiveCommand("whoami", "deploy")).toEqual({ command: "whoami", runAs: "deploy" });
  });
  it("runs `sudo CMD` as root, without the sudo", () => {
    expect(effectiveCommand("sudo apt-get install -y htop", "deploy")).toEqual({ command: "apt-get install -y htop", runAs: "" });
    expect(effectiveCommand("sudo  ls", "")).toEqual({ command: "ls", runAs: "" });
  });
  it("leaves sudo with options, and sudo-like words, alone", () => {
    expect(effectiveCommand("sudo -u bob id", "deploy")).toEqual({ command: "sudo -u bob id", runAs: "deploy" });
    expect(effectiveCommand("sudoedit /etc/x", "deploy")).toEqual({ command: "sudoedit /etc/x", runAs: "deploy" });
    expect(effectiveCommand("sudo", "deploy")).toEqual({ command: "sudo", runAs: "deploy" });
  });
});
